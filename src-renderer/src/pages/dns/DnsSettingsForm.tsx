import { DnsSettingsSchema, type DnsSettings, type DnsSettingsPatch } from '@contracts/dns';
import { ActionIcon, Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { isApiError } from '../../api/api-error.js';
import { useCan } from '../../app-state.js';
import { fieldPath } from '../../components/form-errors.js';
import { SettingsSaveBar } from '../../components/kit/index.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { splitUpstream, upstreamEntryProblem } from '../../validators.js';

interface FormValues {
  enabled: boolean;
  port: number | string;
  local_domain: string;
  upstream: string[];
}

const DOMAIN_LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

export function domainProblem(value: string): string | null {
  const domain = value.trim().replace(/\.$/, '');
  if (domain === '') return 'Enter the local domain';
  if (domain.length > 253) return 'At most 253 characters';
  return domain.split('.').every((label) => DOMAIN_LABEL.test(label)) ? null : 'Labels of letters, digits, - and _, at most 63 characters each';
}

/**
 * Which upstream entry a server error is about: the API names the entry in
 * the message (`upstream entry "dns.example.com": …`).
 */
export function upstreamErrorIndex(message: string, entries: readonly string[]): number | null {
  const named = /entry "([^"]*)"/.exec(message)?.[1];
  if (named === undefined) return null;
  const index = entries.findIndex((entry) => entry.trim() === named);
  return index === -1 ? null : index;
}

function toForm(settings: DnsSettings): FormValues {
  return { enabled: settings.enabled, port: settings.port, local_domain: settings.local_domain, upstream: splitUpstream(settings.upstream) };
}

function SettingsForm({ settings }: { settings: DnsSettings }) {
  const canEdit = useCan('operator');
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: toForm(settings),
    validate: {
      port: (value) => (Value.Check(DnsSettingsSchema.properties.port, Number(value)) ? null : 'A port 1–65535'),
      local_domain: domainProblem,
    },
    validateInputOnBlur: true,
  });
  // A save elsewhere (another window) replaces what is shown unless the user is editing.
  useEffect(() => {
    if (!form.isDirty()) form.setValues(toForm(settings));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);

  const save = useApiAction((api, body: DnsSettingsPatch) => api.dns.settings.update(body), {
    invalidate: [keys.dnsSettings, keys.services, keys.status],
    notifyErrors: false,
    success: 'DNS settings saved.',
    onSuccess: (saved) => form.setInitialValues(toForm(saved)),
  });

  const submit = (values: FormValues) => {
    setFormError(null);
    let bad = false;
    values.upstream.forEach((entry, index) => {
      const problem = upstreamEntryProblem(entry);
      if (problem) {
        form.setFieldError(`upstream.${index}`, problem);
        bad = true;
      }
    });
    if (bad) return;
    save.mutate(
      // `enabled` only when the switch changed: sent unchanged it would start a server the operator stopped by hand (docs/architecture.md, settings apply).
      { ...(form.isDirty('enabled') ? { enabled: values.enabled } : {}), port: Number(values.port), local_domain: values.local_domain.trim(), upstream: values.upstream.map((entry) => entry.trim()).join(', ') },
      {
        onSuccess: (saved) => form.setValues(toForm(saved)),
        onError: (error) => {
          if (!isApiError(error) || error.details.length === 0) {
            setFormError(error.message);
            return;
          }
          const unplaced: string[] = [];
          for (const detail of error.details) {
            const path = fieldPath(detail.field);
            if (path === 'upstream') {
              const index = upstreamErrorIndex(detail.message, values.upstream);
              form.setFieldError(index === null ? 'upstream' : `upstream.${index}`, detail.message);
            } else if (path === 'port' || path === 'local_domain' || path === 'enabled') {
              form.setFieldError(path, detail.message);
            } else {
              unplaced.push(`${detail.field}: ${detail.message}`);
            }
          }
          setFormError(unplaced.length > 0 ? unplaced.join('; ') : null);
        },
      },
    );
  };

  const upstreamError = form.errors.upstream;
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="DNS settings">
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Switch
          label="DNS server enabled"
          description="Off stops the server and its auto-start; on starts it."
          disabled={!canEdit}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Group grow align="flex-start">
          <NumberInput label="Port" description="UDP and TCP" min={1} max={65535} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('port')} />
          <TextInput label="Local domain" description="Answered authoritatively" disabled={!canEdit} {...form.getInputProps('local_domain')} />
        </Group>
        <fieldset className="plain-fieldset" aria-describedby="upstream-help">
          <legend>
            <Text size="sm" fw={500}>
              Upstream servers
            </Text>
          </legend>
          <Text size="xs" c="dimmed" id="upstream-help" mb={4}>
            Names outside the local data are forwarded to these (IP, optional :port; IPv6 as [address]:port). None: not forwarded.
          </Text>
          <Stack gap={6}>
            {form.getValues().upstream.map((_, index) => (
              <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  aria-label={`Upstream server ${index + 1}`}
                  placeholder="192.0.2.53 or [2001:db8::53]:53"
                  style={{ flex: 1 }}
                  disabled={!canEdit}
                  {...form.getInputProps(`upstream.${index}`)}
                  onBlur={(event) => {
                    const problem = upstreamEntryProblem(event.currentTarget.value);
                    if (problem) form.setFieldError(`upstream.${index}`, problem);
                  }}
                />
                {canEdit && (
                  <ActionIcon variant="default" size="lg" aria-label={`Remove upstream server ${index + 1}`} onClick={() => form.removeListItem('upstream', index)}>
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                )}
              </Group>
            ))}
            {form.getValues().upstream.length === 0 && (
              <Text size="sm" c="dimmed">
                No upstream servers: names outside the local data are refused.
              </Text>
            )}
            {typeof upstreamError === 'string' && (
              <Text size="xs" c="red" role="alert">
                {upstreamError}
              </Text>
            )}
            {canEdit && form.getValues().upstream.length < 16 && (
              <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem('upstream', '')}>
                Add upstream server
              </Button>
            )}
          </Stack>
        </fieldset>
        {canEdit && <SettingsSaveBar dirty={form.isDirty()} saving={save.isPending} onDiscard={() => form.reset()} saveLabel="Save DNS settings" />}
      </Stack>
    </form>
  );
}

/** GET/PUT /services/dns. */
export function DnsSettingsCard() {
  const query = useApiQuery(keys.dnsSettings, (api) => api.dns.settings.get());
  return (
    <Card withBorder component="section" aria-labelledby="dns-settings-title">
      <Title order={2} size="h4" id="dns-settings-title" mb="sm">
        Settings
      </Title>
      <QueryState query={query} what="DNS settings">
        {(settings) => <SettingsForm settings={settings} />}
      </QueryState>
    </Card>
  );
}
