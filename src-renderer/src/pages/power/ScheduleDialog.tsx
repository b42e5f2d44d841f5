import type { WolSchedule, WolScheduleInput } from '@contracts/power';
import { Group, List, MultiSelect, SegmentedControl, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { isMac } from '../../validators.js';
import { browserTimezone, describeRun, previewCron } from './cron-preview.js';
import { useHostOptions } from './use-host-options.js';

interface FormValues {
  name: string;
  target: 'hosts' | 'macs';
  host_ids: string[];
  macs: string[];
  when: 'cron' | 'at';
  cron: string;
  /** datetime-local value (the browser's local time). */
  at: string;
  timezone: string;
  enabled: boolean;
}

const initial = (): FormValues => ({ name: '', target: 'hosts', host_ids: [], macs: [], when: 'cron', cron: '0 7 * * 1-5', at: '', timezone: browserTimezone(), enabled: true });

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 time as a datetime-local value in the browser's time zone. */
export function localDateTimeValue(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}T${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/** The form's values for editing a stored schedule. */
export function valuesOf(schedule: WolSchedule): FormValues {
  return {
    name: schedule.name,
    target: schedule.macs ? 'macs' : 'hosts',
    host_ids: (schedule.host_ids ?? []).map(String),
    macs: schedule.macs ?? [],
    when: schedule.at ? 'at' : 'cron',
    cron: schedule.cron ?? '0 7 * * 1-5',
    at: schedule.at ? localDateTimeValue(schedule.at) : '',
    timezone: schedule.timezone,
    enabled: schedule.enabled,
  };
}

export function scheduleBody(values: FormValues): WolScheduleInput {
  return {
    name: values.name.trim(),
    ...(values.target === 'hosts' ? { host_ids: values.host_ids.map(Number) } : { macs: values.macs }),
    ...(values.when === 'cron' ? { cron: values.cron.trim() } : { at: new Date(values.at).toISOString() }),
    timezone: values.timezone.trim() || 'UTC',
    enabled: values.enabled,
  };
}

/**
 * POST /wol/schedule (new) or PUT /wol/schedule/{id} (`schedule` given):
 * wake hosts or MACs on a cron schedule or once, with a preview of the next runs.
 */
export function ScheduleDialog({ opened, onClose, schedule = null, onSaved }: { opened: boolean; onClose: () => void; schedule?: WolSchedule | null; onSaved?: (saved: WolSchedule) => void }) {
  const { options } = useHostOptions();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: initial(),
    validate: {
      name: (value) => (value.trim() === '' ? 'Name the schedule' : null),
      host_ids: (value, values) => (values.target === 'hosts' && value.length === 0 ? 'Choose at least one host' : null),
      macs: (value, values) => (values.target === 'macs' ? (value.length === 0 ? 'Enter at least one MAC address' : value.every(isMac) ? null : 'Every entry must be a MAC address') : null),
      cron: (value, values) => {
        if (values.when !== 'cron') return null;
        const preview = previewCron(value, values.timezone);
        return preview.ok ? null : preview.error;
      },
      at: (value, values) => (values.when !== 'at' ? null : value === '' || Number.isNaN(Date.parse(value)) ? 'Choose the date and time' : Date.parse(value) <= Date.now() ? 'Choose a time in the future' : null),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(schedule ? valuesOf(schedule) : initial());
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, schedule]);
  const save = useApiAction((api, body: WolScheduleInput) => (schedule ? api.power.schedules.update(schedule.id, body) : api.power.schedules.create(body)), {
    invalidate: [keys.wol],
    notifyErrors: false,
    success: (saved) => `Schedule ${saved.name} ${schedule ? 'saved' : 'created'}.`,
  });
  const values = form.getValues();
  const preview = values.when === 'cron' ? previewCron(values.cron, values.timezone) : null;
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={schedule ? `Edit schedule ${schedule.name}` : 'New wake schedule'}
      size="lg"
      error={formError}
      submitLabel={schedule ? 'Save schedule' : 'Create schedule'}
      pending={save.isPending}
      onSubmit={form.onSubmit((submitted) => {
        setFormError(null);
        save.mutate(scheduleBody(submitted), {
          onSuccess: (saved) => {
            onClose();
            onSaved?.(saved);
          },
          onError: (error) =>
            setFormError(
              applyServerErrors(form, error, {
                map: (path) => (path.startsWith('host_ids') ? 'host_ids' : path.startsWith('macs') ? 'macs' : ['name', 'cron', 'at', 'timezone'].includes(path) ? path : null),
              }),
            ),
        });
      })}
    >
      <TextInput label="Name" placeholder="Lab machines, weekday mornings" withAsterisk data-autofocus {...form.getInputProps('name')} />
      <SegmentedControl
        aria-label="Wake what"
        data={[
          { value: 'hosts', label: 'Hosts' },
          { value: 'macs', label: 'MAC addresses' },
        ]}
        {...form.getInputProps('target')}
      />
      {values.target === 'hosts' ? (
        <MultiSelect label="Hosts" placeholder="Choose hosts" data={options} searchable description="Their MAC and address are read at each run" {...form.getInputProps('host_ids')} />
      ) : (
        <TagsInput label="MAC addresses" placeholder="Type a MAC and press Enter" {...form.getInputProps('macs')} />
      )}
      <SegmentedControl
        aria-label="When"
        data={[
          { value: 'cron', label: 'Repeating (cron)' },
          { value: 'at', label: 'Once' },
        ]}
        {...form.getInputProps('when')}
      />
      {values.when === 'cron' ? (
        <Group grow align="flex-start">
          <TextInput label="Cron expression" description="minute hour day month weekday" className="mono" {...form.getInputProps('cron')} />
          <TextInput label="Time zone" description="IANA name, e.g. Europe/Berlin" {...form.getInputProps('timezone')} />
        </Group>
      ) : (
        <TextInput type="datetime-local" label="Date and time (your local time)" {...form.getInputProps('at')} />
      )}
      {preview && preview.ok && (
        <div role="region" aria-label="Next runs">
          <Text size="sm" fw={500}>
            Next runs
          </Text>
          <List size="sm">
            {preview.runs.map((run) => (
              <List.Item key={run.toISOString()}>{describeRun(run, values.timezone)}</List.Item>
            ))}
          </List>
        </div>
      )}
      <Switch label="Enabled" description="A paused schedule keeps its settings and runs again once enabled (from then on)." {...form.getInputProps('enabled', { type: 'checkbox' })} />
    </FormDialog>
  );
}
