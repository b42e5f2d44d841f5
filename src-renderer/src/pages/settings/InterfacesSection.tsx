import { ActionIcon, Button, Checkbox, Group, Radio, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { InterfacesSettingsPatchData, InterfacesSettingsView as InterfacesView } from '@contracts/settings';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { SectionForm } from './SettingsSections.js';
import { useSectionForm } from './use-section-form.js';

type FormValues = {
  mode: 'auto' | 'list';
  served: string[];
  server_addresses: { subnet: string; address: string }[];
};

/** Which interfaces are served (all or a list), per-subnet address overrides, and what was detected. */
export function InterfacesSection({ stored }: { stored: InterfacesView }) {
  const canEdit = useCan('operator');
  const { form, save, saving, formError } = useSectionForm<InterfacesView, FormValues, InterfacesSettingsPatchData>({
    section: (api) => api.settings.interfaces,
    stored,
    toForm: (s) => ({
      mode: s.served === 'auto' ? 'auto' : 'list',
      served: s.served === 'auto' ? [] : s.served,
      server_addresses: s.server_addresses.map((entry) => ({ ...entry })),
    }),
    toBody: (f) => ({
      served: f.mode === 'auto' ? 'auto' : f.served,
      server_addresses: f.server_addresses.map((entry) => ({ subnet: entry.subnet.trim(), address: entry.address.trim() })),
    }),
    mapError: (path) => (path.startsWith('served') ? 'served' : path.startsWith('server_addresses') ? path.replace(/^(server_addresses\.\d+\.(subnet|address)).*$/, '$1') : null),
    validate: { served: (value, values) => (values.mode === 'list' && value.length === 0 ? 'Choose at least one interface, or serve all' : null) },
  });
  const values = form.getValues();
  const names = [...new Set([...stored.detected_interfaces.map((nic) => nic.name), ...values.served])];
  const servedError = form.errors.served;
  return (
    <Stack gap="lg">
      <SectionForm label="Interface settings" save={save} saving={saving} formError={formError} dirty={form.isDirty()} reset={form.reset}>
        <Radio.Group label="Served interfaces" description="DHCP, DNS and TFTP listen and answer on these" {...form.getInputProps('mode')}>
          <Stack gap={6} mt={6}>
            <Radio value="auto" label="All interfaces that are up (not loopback), including ones that appear later" disabled={!canEdit} />
            <Radio value="list" label="Only the interfaces chosen below" disabled={!canEdit} />
          </Stack>
        </Radio.Group>
        {values.mode === 'list' && (
          <Checkbox.Group aria-label="Interfaces to serve" {...form.getInputProps('served')}>
            <Group gap="md" mt={4}>
              {names.map((name) => (
                <Checkbox key={name} value={name} label={name} disabled={!canEdit} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        {typeof servedError === 'string' && (
          <Text size="xs" c="red" role="alert">
            {servedError}
          </Text>
        )}
        <div>
          <Text size="sm" fw={500}>
            Server address overrides
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            Our address on a subnet as clients should use it (e.g. behind NAT, or a subnet reached through a relay).
          </Text>
          <Stack gap={6}>
            {values.server_addresses.map((_, index) => (
              <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput aria-label={`Override ${index + 1} subnet`} placeholder="192.168.10.0/24" disabled={!canEdit} {...form.getInputProps(`server_addresses.${index}.subnet`)} />
                <TextInput aria-label={`Override ${index + 1} address`} placeholder="192.168.10.5" disabled={!canEdit} {...form.getInputProps(`server_addresses.${index}.address`)} />
                {canEdit && (
                  <ActionIcon variant="default" size="lg" aria-label={`Remove override ${index + 1}`} onClick={() => form.removeListItem('server_addresses', index)}>
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                )}
              </Group>
            ))}
            {canEdit && (
              <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem('server_addresses', { subnet: '', address: '' })}>
                Add override
              </Button>
            )}
          </Stack>
        </div>
      </SectionForm>

      <section aria-labelledby="detected-title">
        <Title order={3} size="h5" id="detected-title" mb="xs">
          Detected interfaces and our address per subnet
        </Title>
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <caption className="visually-hidden">Resolved server addresses</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Interface</Table.Th>
                <Table.Th>Subnet</Table.Th>
                <Table.Th>Our address</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Served</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stored.resolved_addresses.map((entry) => (
                <Table.Tr key={`${entry.interface ?? '-'}-${entry.subnet}`}>
                  <Table.Td>{entry.interface ?? <Dim>none</Dim>}</Table.Td>
                  <Table.Td className="mono">{entry.subnet}</Table.Td>
                  <Table.Td className="mono">{entry.address}</Table.Td>
                  <Table.Td>{entry.source}</Table.Td>
                  <Table.Td>{entry.served ? 'Yes' : <Dim>No</Dim>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {stored.resolved_addresses.length === 0 && <Text c="dimmed">No interface has an address.</Text>}
      </section>
    </Stack>
  );
}
