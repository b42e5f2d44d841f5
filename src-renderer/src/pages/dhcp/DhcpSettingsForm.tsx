import { Button, Card, Group, NumberInput, SegmentedControl, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/api-error.js';
import { MAX_PROBE_TIMEOUT_MS, MIN_PROBE_TIMEOUT_MS, type DhcpMode, type DhcpSettings } from '@contracts/dhcp';
import type { InterfacesSettingsView as InterfacesView } from '@contracts/settings';
import { useCan } from '../../app-state.js';
import { fieldPath } from '../../components/form-errors.js';
import { FormError, SettingsSaveBar } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { dhcpErrorPath, settingsFromForm, settingsToForm, subnetProblems, type DhcpForm } from './dhcp-form-model.js';
import { SubnetEditor } from './SubnetEditor.js';

const MODE_OPTIONS: { value: DhcpMode; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'server', label: 'Server' },
  { value: 'proxy', label: 'Proxy' },
];

/** The interfaces of this machine that DHCP can serve: up, not loopback, with an IPv4 address. */
function candidateInterfaces(view: InterfacesView) {
  return view.detected_interfaces.filter((nic) => !nic.internal && nic.addresses.some((address) => address.family === 'ipv4'));
}

/** PUT /services/dhcp: modes per interface, subnets with pools and options, lease and conflict settings. */
export function DhcpSettingsForm({ settings, interfaces }: { settings: DhcpSettings; interfaces: InterfacesView }) {
  const canEdit = useCan('operator');
  const readOnly = !canEdit;
  const nics = candidateInterfaces(interfaces);
  const detected = nics.map((nic) => nic.name);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<DhcpForm>({ initialValues: settingsToForm(settings, detected) });

  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(settingsToForm(settings, detected));
      form.resetDirty(settingsToForm(settings, detected));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings, detected.join(',')]);

  const save = useApiAction((api, body: ReturnType<typeof settingsFromForm>) => api.dhcp.settings.update(body), {
    invalidate: [keys.dhcp, keys.services, keys.status, keys.leases],
    notifyErrors: false,
    success: 'DHCP settings saved.',
  });

  const submit = (values: DhcpForm) => {
    setFormError(null);
    form.clearErrors();
    const problems = Object.assign({}, ...values.subnets.map((subnet, index) => subnetProblems(subnet, index))) as Record<string, string>;
    if (Object.keys(problems).length > 0) {
      form.setErrors(problems);
      setFormError('Some fields need attention (marked below).');
      return;
    }
    save.mutate(settingsFromForm(values), {
      onSuccess: (saved) => {
        form.setValues(settingsToForm(saved, detected));
        form.resetDirty(settingsToForm(saved, detected));
      },
      onError: (error) => {
        if (!isApiError(error) || error.details.length === 0) return setFormError(error.message);
        const unplaced: string[] = [];
        for (const detail of error.details) {
          const path = fieldPath(detail.field);
          const target = path ? dhcpErrorPath(path) : null;
          if (target && target !== 'interfaces') form.setFieldError(target, detail.message);
          else unplaced.push(`${detail.field}: ${detail.message}`);
        }
        setFormError(unplaced.length > 0 ? unplaced.join('; ') : 'The server refused some fields (marked below).');
      },
    });
  };

  const values = form.getValues();
  const configured = new Set(values.subnets.map((subnet) => subnet.subnet.trim()));
  const suggestions = nics.flatMap((nic) => nic.addresses.filter((address) => address.family === 'ipv4' && !configured.has(address.subnet)).map((address) => ({ nic: nic.name, address })));

  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="DHCP settings">
      <Stack gap="md">
        <FormError message={formError} />
        <Card withBorder component="section" aria-labelledby="dhcp-interfaces-title">
          <Title order={2} size="h4" id="dhcp-interfaces-title">
            Interfaces
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Server: hand out addresses and boot information. Proxy: boot information only, beside the network's own DHCP server. Enabling an interface starts the service.
          </Text>
          {values.interfaces.length === 0 ? (
            <Text c="dimmed">No network interface with an IPv4 address was found.</Text>
          ) : (
            <Table>
              <caption className="visually-hidden">DHCP mode per interface</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Interface</Table.Th>
                  <Table.Th>Addresses</Table.Th>
                  <Table.Th>Mode</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {values.interfaces.map((entry, index) => {
                  const nic = nics.find((candidate) => candidate.name === entry.name);
                  return (
                    <Table.Tr key={entry.name}>
                      <Table.Th scope="row">{entry.name}</Table.Th>
                      <Table.Td className="mono">{nic ? nic.addresses.filter((a) => a.family === 'ipv4').map((a) => a.cidr).join(', ') : 'not present'}</Table.Td>
                      <Table.Td>
                        <SegmentedControl
                          aria-label={`DHCP mode on ${entry.name}`}
                          data={MODE_OPTIONS}
                          disabled={readOnly}
                          size="xs"
                          {...form.getInputProps(`interfaces.${index}.mode`)}
                        />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Card>

        <Card withBorder component="section" aria-labelledby="dhcp-subnets-title">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4" id="dhcp-subnets-title">
              Subnets
            </Title>
            {!readOnly && (
              <Group gap="xs">
                {suggestions.map(({ nic, address }) => (
                  <Button
                    key={`${nic}-${address.subnet}`}
                    variant="light"
                    size="xs"
                    onClick={() => form.insertListItem('subnets', { subnet: address.subnet, ranges: [], lease_time_seconds: '', router: '', dns_servers: '', domain_name: '', ntp_servers: '', options: [] })}
                  >
                    Add {address.subnet} ({nic})
                  </Button>
                ))}
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => form.insertListItem('subnets', { subnet: '', ranges: [{ start: '', end: '' }], lease_time_seconds: '', router: '', dns_servers: '', domain_name: '', ntp_servers: '', options: [] })}
                >
                  Add subnet
                </Button>
              </Group>
            )}
          </Group>
          <Stack gap="sm">
            {values.subnets.length === 0 && <Text c="dimmed">No subnets: in server mode, add the subnet of the interface facing the machines.</Text>}
            {values.subnets.map((_, index) => (
              <SubnetEditor key={index} form={form} index={index} readOnly={readOnly} onRemove={() => form.removeListItem('subnets', index)} />
            ))}
          </Stack>
        </Card>

        <Card withBorder component="section" aria-labelledby="dhcp-general-title">
          <Title order={2} size="h4" id="dhcp-general-title" mb="sm">
            Leases and conflicts
          </Title>
          <Group grow align="flex-start">
            <NumberInput label="Default lease time (seconds)" min={10} max={31536000} allowDecimal={false} disabled={readOnly} {...form.getInputProps('default_lease_time_seconds')} />
            <NumberInput label="Declined address quarantine (seconds)" min={0} max={2592000} allowDecimal={false} disabled={readOnly} {...form.getInputProps('decline_quarantine_seconds')} />
          </Group>
          <Stack gap="xs" mt="sm">
            <Switch label="Authoritative (NAK wrong requests instead of staying silent)" disabled={readOnly} {...form.getInputProps('authoritative', { type: 'checkbox' })} />
            <Switch label="Ping an address before offering it" disabled={readOnly} {...form.getInputProps('ping_check', { type: 'checkbox' })} />
          </Stack>
        </Card>

        <Card withBorder component="section" aria-labelledby="dhcp-guard-title">
          <Title order={2} size="h4" id="dhcp-guard-title">
            Rogue-DHCP guard
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Before serving an interface in server mode, Bootwright asks the network whether another DHCP server answers there, and does not start server mode where
            one does (proxy mode works beside it). The start of server mode waits the probe time when nothing answers.
          </Text>
          <Group grow align="flex-start">
            <Switch label="Probe for other DHCP servers before server mode" disabled={readOnly} {...form.getInputProps('rogue_guard', { type: 'checkbox' })} />
            <NumberInput
              label="Probe time (milliseconds)"
              min={MIN_PROBE_TIMEOUT_MS}
              max={MAX_PROBE_TIMEOUT_MS}
              allowDecimal={false}
              disabled={readOnly || !values.rogue_guard}
              {...form.getInputProps('rogue_probe_timeout_ms')}
            />
          </Group>
          <Switch mt="sm" label="Serve in server mode even where another DHCP server answers (force)" disabled={readOnly} {...form.getInputProps('force', { type: 'checkbox' })} />
        </Card>

        <Card withBorder>
          <Title order={4} mb="xs">
            IPv6 Router Advertisements
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            iPXE waits for IPv6 autoconfiguration at every boot stage when no IPv6 router answers. An advertisement that says &quot;no default router, no prefix,
            no DHCPv6&quot; ends that wait at once and changes nothing else. Automatic: on server-mode interfaces only (in proxy mode another router may own the
            segment), and never where another router advertises.
          </Text>
          <SegmentedControl
            disabled={readOnly}
            data={[
              { value: 'auto', label: 'Automatic (server mode)' },
              { value: 'always', label: 'Server and proxy mode' },
              { value: 'off', label: 'Off' },
            ]}
            {...form.getInputProps('ipv6_ra')}
          />
        </Card>

        {!readOnly && <SettingsSaveBar sticky dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save DHCP settings" />}
      </Stack>
    </form>
  );
}
