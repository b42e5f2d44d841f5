import { Group, NumberInput, Select, Stack, Switch, TagsInput, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LOG_LEVELS } from '@contracts/logs';
import { LoggingSettingsSchema, NetbootSettingsSchema, type GeneralSettings, type GeneralSettingsPatchData, type LoggingSettings, type LoggingSettingsPatchData, type NetbootSettings, type NetbootSettingsPatchData } from '@contracts/settings';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { useCan } from '../../app-state.js';
import { FormError, SettingsSaveBar } from '../../components/kit/index.js';
import { useProfileOptions } from '../hosts/use-profile-options.js';
import { bootLoaderErrorField, BootLoadersFields, bootLoadersBody, checkGroupName, loaderFormFields, type BootLoaderFormFields } from './BootLoadersFields.js';
import { useSectionForm } from './use-section-form.js';

export function SectionForm({ label, save, saving, formError, dirty, reset, children }: { label: string; save: () => void; saving: boolean; formError: string | null; dirty: boolean; reset: () => void; children: ReactNode }) {
  const canEdit = useCan('operator');
  return (
    <form onSubmit={save} aria-label={label}>
      <Stack gap="sm" maw={760}>
        <FormError message={formError} />
        {children}
        {canEdit && <SettingsSaveBar dirty={dirty} saving={saving} onDiscard={reset} saveLabel="Save" />}
      </Stack>
    </form>
  );
}

type GeneralForm = { server_name: string; update_feed_url: string; allowed_hosts: string[] };
type NetbootForm = BootLoaderFormFields & {
  default_action: NetbootSettings['default_action'];
  default_profile_id: string | null;
  menu_timeout_seconds: number | string;
  record_unknown_hosts: boolean;
  cache_max_mb: number | string;
  offline: boolean;
  download_timeout_seconds: number | string;
  http_proxy: string;
  task_expiry_minutes: number | string;
};

/** The contract's field rule (an integer in its range); the message names the range. */
const fits = (schema: TSchema & { minimum?: number; maximum?: number }) => (value: number | string) => (value !== '' && Value.Check(schema, Number(value)) ? null : `${schema.minimum ?? ''}–${schema.maximum ?? ''}`);
type LoggingForm = { level: LoggingSettings['level']; event_retention_count: number | string; event_retention_days: number | string; audit_retention_days: number | string };

const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function GeneralSection({ stored }: { stored: GeneralSettings }) {
  const canEdit = useCan('operator');
  const isAdmin = useCan('admin');
  const { form, save, saving, formError } = useSectionForm<GeneralSettings, GeneralForm, GeneralSettingsPatchData>({
    section: (api) => api.settings.general,
    stored,
    toForm: (s) => ({ server_name: s.server_name, update_feed_url: s.update_feed_url ?? '', allowed_hosts: s.allowed_hosts }),
    // Admin-only fields are sent only by admins (an operator's PUT must not touch them).
    toBody: (f) => ({ server_name: f.server_name.trim(), ...(isAdmin ? { update_feed_url: f.update_feed_url.trim() === '' ? null : f.update_feed_url.trim(), allowed_hosts: f.allowed_hosts } : {}) }),
    validate: {
      server_name: (value) => (LABEL.test(value.trim()) ? null : 'One DNS label: letters, digits, inner hyphens, 1–63 characters'),
      update_feed_url: (value) => (value.trim() === '' || /^https?:\/\/[^\s@]+$/.test(value.trim()) ? null : 'An http:// or https:// URL without user name or password'),
    },
  });
  return (
    <SectionForm label="General settings" save={save} saving={saving} formError={formError} dirty={form.isDirty()} reset={form.reset}>
      <TextInput label="Server name" description="Used for DNS auto-records and shown in the UI" disabled={!canEdit} {...form.getInputProps('server_name')} />
      <TextInput label="Update feed URL" description={isAdmin ? 'Empty: no update checks' : 'Only an admin can change this'} placeholder="none" disabled={!isAdmin} {...form.getInputProps('update_feed_url')} />
      <TagsInput
        label="Allowed host names"
        description={isAdmin ? 'Extra names the web UI answers to (DNS-rebinding guard); press Enter after each' : 'Only an admin can change this'}
        disabled={!isAdmin}
        {...form.getInputProps('allowed_hosts')}
      />
    </SectionForm>
  );
}

export function NetbootSection({ stored }: { stored: NetbootSettings }) {
  const canEdit = useCan('operator');
  const isAdmin = useCan('admin');
  const { options } = useProfileOptions();
  const fields = NetbootSettingsSchema.properties;
  const { form, save, saving, formError } = useSectionForm<NetbootSettings, NetbootForm, NetbootSettingsPatchData>({
    section: (api) => api.settings.netboot,
    stored,
    toForm: (s) => ({
      default_action: s.default_action,
      default_profile_id: s.default_profile_id === null ? null : String(s.default_profile_id),
      menu_timeout_seconds: s.menu_timeout_seconds,
      record_unknown_hosts: s.record_unknown_hosts,
      cache_max_mb: s.cache_max_mb,
      offline: s.offline,
      download_timeout_seconds: s.download_timeout_seconds,
      http_proxy: s.http_proxy ?? '',
      task_expiry_minutes: s.task_expiry_minutes,
      ...loaderFormFields(s.boot_loaders),
    }),
    // The proxy is admin-only: an operator's PUT must not touch it.
    toBody: (f) => ({
      default_action: f.default_action,
      default_profile_id: f.default_profile_id === null ? null : Number(f.default_profile_id),
      menu_timeout_seconds: Number(f.menu_timeout_seconds),
      record_unknown_hosts: f.record_unknown_hosts,
      cache_max_mb: Number(f.cache_max_mb),
      offline: f.offline,
      download_timeout_seconds: Number(f.download_timeout_seconds),
      task_expiry_minutes: Number(f.task_expiry_minutes),
      // The whole object: the groups removed here must go on the server too.
      boot_loaders: bootLoadersBody(f),
      ...(isAdmin ? { http_proxy: f.http_proxy.trim() === '' ? null : f.http_proxy.trim() } : {}),
    }),
    validate: {
      default_profile_id: (value, values) => (values.default_action === 'profile' && value === null ? 'Choose the profile unknown machines boot' : null),
      menu_timeout_seconds: (value) => (value !== '' && Number.isInteger(Number(value)) && Number(value) >= 0 && Number(value) <= 600 ? null : '0–600 seconds'),
      cache_max_mb: fits(fields.cache_max_mb),
      download_timeout_seconds: fits(fields.download_timeout_seconds),
      task_expiry_minutes: fits(fields.task_expiry_minutes),
      http_proxy: (value) => (Value.Check(fields.http_proxy, value.trim() === '' ? null : value.trim()) ? null : 'An http:// or https:// URL'),
      loader_groups: { group: (value, values, path) => checkGroupName(value, values.loader_groups, Number(path.split('.')[1])) },
    },
    // boot_loaders.* lands on the loader fields; the other fields keep their names.
    mapError: (path) => bootLoaderErrorField(path) ?? (Object.hasOwn(fields, path.split('.')[0] ?? '') ? path : null),
  });
  const action = form.getValues().default_action;
  return (
    <SectionForm label="Netboot settings" save={save} saving={saving} formError={formError} dirty={form.isDirty()} reset={form.reset}>
      <Select
        label="Machines without a host entry boot"
        data={[
          { value: 'menu', label: 'The boot menu (every profile)' },
          { value: 'local', label: 'Their local disk' },
          { value: 'profile', label: 'One profile' },
        ]}
        allowDeselect={false}
        disabled={!canEdit}
        {...form.getInputProps('default_action')}
      />
      {action === 'profile' && <Select label="Default profile" data={options} searchable disabled={!canEdit} {...form.getInputProps('default_profile_id')} />}
      <NumberInput label="Menu timeout (seconds)" description="0 waits for a key" min={0} max={600} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('menu_timeout_seconds')} />
      <Switch label="Record unknown machines as discovered hosts" disabled={!canEdit} {...form.getInputProps('record_unknown_hosts', { type: 'checkbox' })} />
      <Title order={3} size="h5" mt="sm">
        OS installs (netboot catalog)
      </Title>
      <Switch
        label="Offline: never download boot files"
        description="Entries whose files are only on a mirror fail at once, naming what to download or import"
        disabled={!canEdit}
        {...form.getInputProps('offline', { type: 'checkbox' })}
      />
      <Group grow align="flex-start">
        <NumberInput label="Download cache size (MiB)" description="Least recently used files are evicted beyond it" min={64} max={1_048_576} allowDecimal={false} thousandSeparator=" " disabled={!canEdit} {...form.getInputProps('cache_max_mb')} />
        <NumberInput label="Download timeout (seconds)" description="A mirror that sends nothing this long fails" min={5} max={600} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('download_timeout_seconds')} />
      </Group>
      <Group grow align="flex-start">
        <NumberInput label="Install tasks expire after (minutes)" description="Default lifetime of a task" min={5} max={43_200} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('task_expiry_minutes')} />
        <TextInput label="HTTP proxy for downloads" description={isAdmin ? 'Empty: direct' : 'Only an admin can change this'} placeholder="none" disabled={!isAdmin} {...form.getInputProps('http_proxy')} />
      </Group>
      <BootLoadersFields form={form} canEdit={canEdit} />
    </SectionForm>
  );
}

export function LoggingSection({ stored }: { stored: LoggingSettings }) {
  const canEdit = useCan('operator');
  const isAdmin = useCan('admin');
  const fields = LoggingSettingsSchema.properties;
  const { form, save, saving, formError } = useSectionForm<LoggingSettings, LoggingForm, LoggingSettingsPatchData>({
    section: (api) => api.settings.logging,
    stored,
    toForm: (s) => ({
      level: s.level,
      event_retention_count: s.event_retention_count,
      event_retention_days: s.event_retention_days,
      audit_retention_days: s.audit_retention_days,
    }),
    toBody: (f) => ({
      level: f.level,
      event_retention_count: Number(f.event_retention_count),
      event_retention_days: Number(f.event_retention_days),
      ...(isAdmin ? { audit_retention_days: Number(f.audit_retention_days) } : {}),
    }),
    validate: { event_retention_count: fits(fields.event_retention_count), event_retention_days: fits(fields.event_retention_days), audit_retention_days: fits(fields.audit_retention_days) },
  });
  return (
    <SectionForm label="Logging settings" save={save} saving={saving} formError={formError} dirty={form.isDirty()} reset={form.reset}>
      <Select label="Log level" data={[...LOG_LEVELS]} allowDeselect={false} disabled={!canEdit} {...form.getInputProps('level')} />
      <Group grow align="flex-start">
        <NumberInput label="Keep at most this many events" min={100} max={1_000_000} allowDecimal={false} thousandSeparator=" " disabled={!canEdit} {...form.getInputProps('event_retention_count')} />
        <NumberInput label="Keep events for (days)" min={1} max={3650} allowDecimal={false} disabled={!canEdit} {...form.getInputProps('event_retention_days')} />
        <NumberInput label="Keep audit entries for (days)" description={isAdmin ? undefined : 'Admin only'} min={1} max={3650} allowDecimal={false} disabled={!isAdmin} {...form.getInputProps('audit_retention_days')} />
      </Group>
    </SectionForm>
  );
}
