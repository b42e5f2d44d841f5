import { BmcConfigFields, MAX_BMC_NAME_LENGTH, type BmcConfigInput, type BmcConfigView as BmcConfig, type BmcPrivilege, type BmcProtocol, type CipherSuite } from '@contracts/power';
import { Checkbox, Group, NumberInput, PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { filterOptions, FormDialog } from '../../components/kit/index.js';
import { TOGGLE_PROPS } from '../../components/password-toggle.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { useHostOptions } from './use-host-options.js';

/** Labels of the contract's protocols and privileges (typed by them, so a new one cannot be missed). */
const PROTOCOL_LABELS: Record<BmcProtocol, string> = { ipmi: 'IPMI 2.0 (UDP)', redfish: 'Redfish (HTTPS)' };
const PRIVILEGE_LABELS: Record<BmcPrivilege, string> = { administrator: 'Administrator', operator: 'Operator (enough for power and boot device)' };

interface FormValues {
  name: string;
  address: string;
  port: number | string;
  protocol: BmcProtocol;
  username: string;
  password: string;
  clear_password: boolean;
  host_id: string | null;
  verify_tls: boolean;
  cipher_suite: string;
  privilege: BmcPrivilege;
}

const initial = (config: BmcConfig | null): FormValues => ({
  name: config?.name ?? '',
  address: config?.address ?? '',
  port: config?.port ?? '',
  protocol: config?.protocol ?? 'ipmi',
  username: config?.username ?? '',
  password: '',
  clear_password: false,
  host_id: config?.host_id !== null && config?.host_id !== undefined ? String(config.host_id) : null,
  verify_tls: config?.verify_tls ?? true,
  cipher_suite: config?.cipher_suite ? String(config.cipher_suite) : '',
  privilege: config?.privilege ?? 'administrator',
});

/** The body: the password only when typed (it is write-only), or "" to remove a stored one. */
export function bmcBody(values: FormValues, editing: boolean): BmcConfigInput {
  const body: BmcConfigInput = {
    name: values.name.trim(),
    address: values.address.trim(),
    protocol: values.protocol,
    username: values.username.trim(),
    host_id: values.host_id === null ? null : Number(values.host_id),
    verify_tls: values.verify_tls,
    cipher_suite: values.cipher_suite === '' ? null : (Number(values.cipher_suite) as CipherSuite),
    privilege: values.privilege,
  };
  if (values.port !== '') body.port = Number(values.port);
  if (values.clear_password) body.password = '';
  else if (values.password !== '' || !editing) body.password = values.password;
  return body;
}

/** Create or edit a BMC config (IPMI or Redfish). */
export function BmcConfigDialog({ opened, config, onClose, onSaved }: { opened: boolean; config: BmcConfig | null; onClose: () => void; onSaved?: (saved: BmcConfig) => void }) {
  const { options } = useHostOptions();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: initial(config),
    validate: {
      name: (value) => (value.trim() === '' ? 'Name the BMC' : Value.Check(BmcConfigFields.name, value.trim()) ? null : `At most ${MAX_BMC_NAME_LENGTH} characters`),
      address: (value) => (value.trim() === '' ? 'The BMC address or host name' : null),
      port: (value) => (value === '' || Value.Check(BmcConfigFields.port, Number(value)) ? null : '1–65535, or empty for the default'),
      username: (value) => (value.trim() === '' ? 'The BMC user' : null),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(initial(config));
      form.resetDirty(initial(config));
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, config]);
  const save = useApiAction(
    // A new config's body always has name, address and username (the form requires them).
    (api, body: BmcConfigInput) => (config ? api.power.bmc.update(config.id, body) : api.power.bmc.create(body as typeof body & Pick<BmcConfig, 'name' | 'address' | 'username'>)),
    { invalidate: [keys.bmc], notifyErrors: false, success: (saved) => `BMC ${saved.name} ${config ? 'saved' : 'added'}.` },
  );
  const values = form.getValues();
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={config ? `Edit BMC ${config.name}` : 'New BMC config'}
      size="lg"
      error={formError}
      submitLabel={config ? 'Save BMC' : 'Add BMC'}
      pending={save.isPending}
      onSubmit={form.onSubmit((submitted) => {
        setFormError(null);
        save.mutate(bmcBody(submitted, config !== null), {
          onSuccess: (saved) => {
            onClose();
            onSaved?.(saved);
          },
          onError: (error) => setFormError(applyServerErrors(form, error, { fields: Object.keys(submitted) })),
        });
      })}
    >
      <Group grow align="flex-start">
        <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Select label="Host" placeholder="Not linked" data={options} clearable searchable description="The machine this BMC controls" {...form.getInputProps('host_id')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Address" placeholder="10.0.0.50 or bmc01.lan" withAsterisk {...form.getInputProps('address')} />
        <Select
          label="Protocol"
          data={filterOptions(PROTOCOL_LABELS)}
          allowDeselect={false}
          {...form.getInputProps('protocol')}
        />
        <NumberInput label="Port" placeholder={values.protocol === 'ipmi' ? '623' : '443'} min={1} max={65535} allowDecimal={false} {...form.getInputProps('port')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Username" withAsterisk autoComplete="off" {...form.getInputProps('username')} />
        <PasswordInput
          label="Password"
          visibilityToggleButtonProps={TOGGLE_PROPS}
          autoComplete="new-password"
          placeholder={config?.has_password ? 'Stored; type to replace' : 'None stored'}
          disabled={values.clear_password}
          {...form.getInputProps('password')}
        />
      </Group>
      {config?.has_password && <Checkbox label="Remove the stored password" {...form.getInputProps('clear_password', { type: 'checkbox' })} />}
      {values.protocol === 'ipmi' ? (
        <Group grow align="flex-start">
          <Select
            label="Cipher suite"
            data={[
              { value: '', label: 'Automatic (17, then 3)' },
              { value: '17', label: '17 (SHA-256)' },
              { value: '3', label: '3 (SHA-1)' },
            ]}
            allowDeselect={false}
            {...form.getInputProps('cipher_suite')}
          />
          <Select
            label="Session privilege"
            data={filterOptions(PRIVILEGE_LABELS)}
            allowDeselect={false}
            {...form.getInputProps('privilege')}
          />
        </Group>
      ) : (
        <Switch label="Verify the TLS certificate (turn off for self-signed BMC certificates)" {...form.getInputProps('verify_tls', { type: 'checkbox' })} />
      )}
    </FormDialog>
  );
}
