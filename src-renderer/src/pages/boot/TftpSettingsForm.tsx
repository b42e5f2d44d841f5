import { Card, NumberInput, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import type { TftpSettings } from '../../api/models/boot.js';
import { useCan } from '../../app-state.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormError, SettingsSaveBar } from '../../components/kit/index.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiGet, useApiMutation } from '../../query/api-hooks.js';
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

const between = (min: number, max: number) => (value: Numeric) =>
  value !== '' && Number.isInteger(Number(value)) && Number(value) >= min && Number(value) <= max ? null : `An integer ${min}–${max}`;

function Form({ settings }: { settings: TftpSettings }) {
  const readOnly = !useCan('operator');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: settings,
    validate: {
      port: between(1, 65535),
      root: (value) => (value.trim() === '' || value.trim().startsWith('/') || /^[A-Za-z]:[\\/]/.test(value.trim()) ? null : 'An absolute path (empty: the boot root)'),
      max_blksize: between(512, 65464),
      max_windowsize: between(1, 64),
      timeout: between(1, 255),
      retries: between(1, 20),
    },
  });
  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(settings);
      form.resetDirty(settings);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);
  const save = useApiMutation((client, body: object) => client.put<TftpSettings>('/services/tftp', body), {
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
          <NumberInput label="UDP port" min={1} max={65535} allowDecimal={false} disabled={readOnly} {...form.getInputProps('port')} />
          <TextInput label="Root directory" description="Admin only to change; a folder inside an allowed root; empty: the boot root" disabled={readOnly} {...form.getInputProps('root')} />
          <NumberInput label="Largest block size" description="1468 fits an Ethernet frame" min={512} max={65464} allowDecimal={false} disabled={readOnly} {...form.getInputProps('max_blksize')} />
          <NumberInput label="Largest window size (blocks)" min={1} max={64} allowDecimal={false} disabled={readOnly} {...form.getInputProps('max_windowsize')} />
          <NumberInput label="Retransmission timeout (s)" min={1} max={255} allowDecimal={false} disabled={readOnly} {...form.getInputProps('timeout')} />
          <NumberInput label="Retries per window" min={1} max={20} allowDecimal={false} disabled={readOnly} {...form.getInputProps('retries')} />
        </SimpleGrid>
        {!readOnly && <SettingsSaveBar dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save TFTP settings" />}
      </Stack>
    </form>
  );
}

/** GET/PUT /services/tftp. A change restarts a running server. */
export function TftpSettingsCard() {
  const query = useApiGet<TftpSettings>(keys.tftp, '/services/tftp');
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
