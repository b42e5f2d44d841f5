import type { BmcProbeInput, BmcProbeResult, BmcProtocol } from '@contracts/power';
import { Alert, Group, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { applyServerErrors } from '../../components/form-errors.js';
import { DialogActions, filterOptions, FormError } from '../../components/kit/index.js';
import { TOGGLE_PROPS } from '../../components/password-toggle.js';
import { useApiAction } from '../../query/api-hooks.js';

/** The contract's protocols, and '' to let the probe detect one. */
const PROTOCOL_CHOICES: Record<BmcProtocol | '', string> = { '': 'Detect', ipmi: 'IPMI', redfish: 'Redfish' };

interface FormValues {
  address: string;
  port: number | string;
  protocol: BmcProtocol | '';
  username: string;
  password: string;
  verify_tls: boolean;
}

function Result({ result }: { result: BmcProbeResult }) {
  const rows: [string, string][] = [
    ['Reachable', result.reachable ? 'yes' : 'no'],
    ['Logged in', result.authenticated ? 'yes' : 'no'],
    ['Protocol', `${result.protocol ?? '—'} on port ${result.port}${result.session ? ` (${result.session})` : ''}`],
    ['Cipher suite', result.cipher_suite !== null ? String(result.cipher_suite) : '—'],
    ['Vendor / model', `${result.vendor ?? '—'} / ${result.model ?? '—'}`],
    ['Firmware', result.firmware ?? '—'],
    ['Power', result.power_state ?? '—'],
  ];
  return (
    <Stack gap="xs" aria-live="polite">
      {result.error && (
        <Alert color={result.reachable ? 'orange' : 'red'} title={result.error_reason ?? 'failed'}>
          {result.error}
        </Alert>
      )}
      <Table variant="vertical">
        <caption className="visually-hidden">Probe result</caption>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={150}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** POST /bmc/probe: try an address and credentials before saving them (detects the protocol when not given). */
export function BmcProbeDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<FormValues>({
    initialValues: { address: '', port: '', protocol: '', username: '', password: '', verify_tls: false },
    validate: {
      address: (value) => (value.trim() === '' ? 'The BMC address' : null),
      username: (value) => (value.trim() === '' ? 'The BMC user' : null),
    },
  });
  const probe = useApiAction((api, body: BmcProbeInput) => api.power.bmc.probe(body), { notifyErrors: false });
  const formError = probe.error ? applyServerErrors(form, probe.error, { fields: ['address', 'port', 'protocol', 'username', 'password'] }) : null;
  return (
    <Modal opened={opened} onClose={onClose} title="Probe a BMC" size="lg">
      <form
        onSubmit={form.onSubmit((values) =>
          probe.mutate({
            address: values.address.trim(),
            username: values.username.trim(),
            password: values.password,
            verify_tls: values.verify_tls,
            ...(values.port !== '' ? { port: Number(values.port) } : {}),
            ...(values.protocol !== '' ? { protocol: values.protocol } : {}),
          }),
        )}
      >
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label="Address" withAsterisk data-autofocus {...form.getInputProps('address')} />
            <Select
              label="Protocol"
              data={filterOptions(PROTOCOL_CHOICES)}
              allowDeselect={false}
              {...form.getInputProps('protocol')}
            />
            <NumberInput label="Port" placeholder="default" min={1} max={65535} allowDecimal={false} {...form.getInputProps('port')} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label="Username" withAsterisk autoComplete="off" {...form.getInputProps('username')} />
            <PasswordInput label="Password" visibilityToggleButtonProps={TOGGLE_PROPS} autoComplete="new-password" {...form.getInputProps('password')} />
          </Group>
          <Switch label="Verify the TLS certificate (Redfish)" {...form.getInputProps('verify_tls', { type: 'checkbox' })} />
          <FormError message={formError} />
          {probe.data && <Result result={probe.data} />}
          <DialogActions onCancel={onClose} cancelLabel="Close" confirmLabel="Probe" pending={probe.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
