import { TFTP_SETTING_LIMITS, TftpSettingsViewSchema, type TftpSettingsUpdate, type TftpSettingsView } from '@contracts/tftp';
import { Card, NumberInput, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { useCan } from '../../app-state.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormError, SettingsSaveBar } from '../../components/kit/index.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

type Numeric = number | string;
interface FormValues {
  enabled: boolean;
  port: Numeric;
  root: string;
  max_blksize: Numeric;
  max_windowsize: Numeric;
  timeout: Numeric;
  retries: Numeric;
}

type LimitedField = keyof typeof TFTP_SETTING_LIMITS;

/** The contract's rule for a numeric field (an integer in its range). */
const checkField = (field: LimitedField) => (value: Numeric) =>
  value !== '' && Value.Check(TftpSettingsViewSchema.properties[field], Number(value))
    ? null
    : `An integer ${TFTP_SETTING_LIMITS[field].min}–${TFTP_SETTING_LIMITS[field].max}`;

/** The min/max props of a numeric input, from the contract's limits. */
const range = (field: LimitedField) => ({ min: TFTP_SETTING_LIMITS[field].min, max: TFTP_SETTING_LIMITS[field].max });

function Form({ settings }: { settings: TftpSettingsView }) {
  const readOnly = !useCan('operator');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: settings,
    validate: {
      port: checkField('port'),
      root: (value) => (value.trim() === '' || value.trim().startsWith('/') || /^[A-Za-z]:[\\/]/.test(value.trim()) ? null : 'An absolute path (empty: the boot root)'),
      max_blksize: checkField('max_blksize'),
      max_windowsize: checkField('max_windowsize'),
      timeout: checkField('timeout'),
      retries: checkField('retries'),
    },
  });
  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(settings);
      form.resetDirty(settings);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);
  const save = useApiAction((api, body: TftpSettingsUpdate) => api.tftp.settings.update(body), {
    invalidate: [keys.tftp, keys.services, keys.status],
    notifyErrors: false,
    success: 'TFTP settings saved.',
    onSuccess: (saved) => {
      form.setValues(saved);
      form.resetDirty(saved);
    },
  });
  return (
    <form
      aria-label="TFTP settings"
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        save.mutate(
          {
            // `enabled` only when the switch changed: sent unchanged it would start a server the operator stopped by hand.
            ...(form.isDirty('enabled') ? { enabled: values.enabled } : {}),
            port: Number(values.port),
            root: values.root.trim() === '' ? null : values.root.trim(),
            max_blksize: Number(values.max_blksize),
            max_windowsize: Number(values.max_windowsize),
            timeout: Number(values.timeout),
            retries: Number(values.retries),
          },
          { onError: (error) => setFormError(applyServerErrors(form, error, { fields: Object.keys(values) })) },
        );
      })}
    >
      <Stack gap="sm">
        <FormError message={formError} />
        <Switch label="TFTP server enabled" description="Its auto-start flag: on starts it, off stops it" disabled={readOnly} {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <NumberInput label="UDP port" {...range('port')} allowDecimal={false} disabled={readOnly} {...form.getInputProps('port')} />
          <TextInput label="Root directory" description="Admin only to change; a folder inside an allowed root; empty: the boot root" disabled={readOnly} {...form.getInputProps('root')} />
          <NumberInput label="Largest block size" description="1468 fits an Ethernet frame" {...range('max_blksize')} allowDecimal={false} disabled={readOnly} {...form.getInputProps('max_blksize')} />
          <NumberInput label="Largest window size (blocks)" {...range('max_windowsize')} allowDecimal={false} disabled={readOnly} {...form.getInputProps('max_windowsize')} />
          <NumberInput label="Retransmission timeout (s)" {...range('timeout')} allowDecimal={false} disabled={readOnly} {...form.getInputProps('timeout')} />
          <NumberInput label="Retries per window" {...range('retries')} allowDecimal={false} disabled={readOnly} {...form.getInputProps('retries')} />
        </SimpleGrid>
        {!readOnly && <SettingsSaveBar dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save TFTP settings" />}
      </Stack>
    </form>
  );
}

/** GET/PUT /services/tftp. A change restarts a running server. */
export function TftpSettingsCard() {
  const query = useApiQuery(keys.tftp, (api) => api.tftp.settings.get());
  return (
    <Card withBorder component="section" aria-labelledby="tftp-settings-title">
      <Title order={2} size="h4" id="tftp-settings-title" mb="sm">
        TFTP server
      </Title>
      <QueryState query={query} what="TFTP settings">
        {(settings) => <Form settings={settings} />}
      </QueryState>
    </Card>
  );
}
