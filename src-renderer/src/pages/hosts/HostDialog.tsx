import { Group, Select, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { BootLoader } from '@contracts/settings';
import { HostFieldSchemas, MAX_HOST_DESCRIPTION, MAX_HOST_TAGS, type Host, type HostInput } from '@contracts/hosts';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { isHostname, isIPv4, isMac } from '../../validators.js';
import { HOST_LOADER_OPTIONS } from './boot-loader-labels.js';
import { useProfileOptions } from './use-profile-options.js';

interface FormValues {
  mac: string;
  hostname: string;
  ip: string;
  profile_id: string | null;
  group: string;
  tags: string[];
  description: string;
  arch: string;
  enabled: boolean;
  /** 'default' is null: the group's loader, else the architecture's default. */
  boot_loader: 'default' | BootLoader;
}


/** Adopting a machine offers the address it was last seen on: kept, it becomes its reservation. */
const initial = (host: Host | null, mode: HostDialogMode): FormValues => ({
  mac: host?.mac ?? '',
  hostname: host?.hostname ?? '',
  ip: host?.ip ?? (mode === 'adopt' ? (host?.last_seen_ip ?? '') : ''),
  profile_id: host?.profile_id !== null && host?.profile_id !== undefined ? String(host.profile_id) : null,
  group: host?.group ?? '',
  tags: host?.tags ?? [],
  description: host?.description ?? '',
  arch: host?.arch ?? '',
  enabled: host?.enabled ?? true,
  boot_loader: host?.boot_loader ?? 'default',
});

export function hostBody(values: FormValues, adopt: boolean): HostInput & { mac: string } {
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    mac: values.mac.trim(),
    hostname: text(values.hostname),
    ip: text(values.ip),
    profile_id: values.profile_id === null ? null : Number(values.profile_id),
    group: text(values.group),
    tags: values.tags,
    description: values.description,
    arch: text(values.arch),
    enabled: values.enabled,
    boot_loader: values.boot_loader === 'default' ? null : values.boot_loader,
    ...(adopt ? { discovered: false } : {}),
  };
}

export type HostDialogMode = 'create' | 'edit' | 'adopt';

const TITLES: Record<HostDialogMode, string> = { create: 'New host', edit: 'Edit host', adopt: 'Adopt discovered machine' };
const SUBMIT: Record<HostDialogMode, string> = { create: 'Create host', edit: 'Save host', adopt: 'Adopt host' };

/** Create, edit or adopt a host (adopting clears `discovered`), with a profile picker. */
export function HostDialog({ opened, host, mode, onClose, onSaved }: { opened: boolean; host: Host | null; mode: HostDialogMode; onClose: () => void; onSaved?: (host: Host) => void }) {
  const { options, query: profilesQuery } = useProfileOptions();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    initialValues: initial(host, mode),
    validate: {
      mac: (value) => (isMac(value) ? null : 'A MAC address, e.g. 52:54:00:12:34:56'),
      hostname: (value) => (value.trim() === '' || isHostname(value) ? null : 'A host name: letters, digits, inner hyphens, dots between labels'),
      ip: (value) => (value.trim() === '' || isIPv4(value) ? null : 'An IPv4 address, or empty'),
      group: (value) => (value.trim() === '' || Value.Check(HostFieldSchemas.group, value.trim()) ? null : 'Letters, digits, space . _ - (starting with a letter or digit), at most 64'),
      tags: (value) =>
        value.every((tag) => Value.Check(HostFieldSchemas.tags.items, tag))
          ? value.length <= MAX_HOST_TAGS
            ? null
            : `At most ${MAX_HOST_TAGS} tags`
          : 'Tags: letters, digits . _ : - (at most 64 each)',
      arch: (value) => (value.trim() === '' || Value.Check(HostFieldSchemas.arch, value.trim()) ? null : 'Lowercase letters, digits and _ (x86_64, arm64)'),
      description: (value) => (value.length <= MAX_HOST_DESCRIPTION ? null : `At most ${MAX_HOST_DESCRIPTION} characters`),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(initial(host, mode));
      form.resetDirty(initial(host, mode));
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, host]);

  const save = useApiAction((api, body: HostInput & { mac: string }) => (host ? api.hosts.update(host.id, body) : api.hosts.create(body)), {
    invalidate: [keys.hosts, keys.reservations],
    notifyErrors: false,
    success: (saved) => `Host ${saved.hostname ?? saved.mac} ${mode === 'create' ? 'created' : mode === 'adopt' ? 'adopted' : 'saved'}.`,
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={TITLES[mode]}
      size="lg"
      error={formError}
      submitLabel={SUBMIT[mode]}
      pending={save.isPending}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        save.mutate(hostBody(values, mode === 'adopt'), {
          onSuccess: (saved) => {
            onClose();
            onSaved?.(saved);
          },
          onError: (error) => setFormError(applyServerErrors(form, error, { fields: Object.keys(values) })),
        });
      })}
    >
      <Group grow align="flex-start">
        <TextInput label="MAC address" placeholder="52:54:00:12:34:56" withAsterisk data-autofocus={mode === 'create' || undefined} {...form.getInputProps('mac')} />
        <TextInput label="Hostname" placeholder="web01" data-autofocus={mode !== 'create' || undefined} {...form.getInputProps('hostname')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label="IP address"
          placeholder="none"
          description={mode === 'adopt' && host?.ip === null && host.last_seen_ip ? `Seen on ${host.last_seen_ip}: kept, it is reserved for this machine` : 'Reserves this address in DHCP'}
          {...form.getInputProps('ip')}
        />
        <Select
          label="Boot profile"
          placeholder={profilesQuery.isPending ? 'Loading profiles…' : 'None (group default or global default)'}
          data={options}
          clearable
          searchable
          nothingFoundMessage="No profile of that name"
          {...form.getInputProps('profile_id')}
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Group" placeholder="none" description="A profile can be the default of a group" {...form.getInputProps('group')} />
        <TagsInput label="Tags" placeholder="Type and press Enter" {...form.getInputProps('tags')} />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Architecture" placeholder="learned at boot" {...form.getInputProps('arch')} />
        <Switch label="Enabled (off: boots the local disk)" mt="lg" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      </Group>
      <Select
        label="Boot loader"
        description="What this machine gets first when it PXE-boots as x64 or ARM64 UEFI (BIOS machines always get iPXE); GRUB works with Secure Boot on"
        data={HOST_LOADER_OPTIONS}
        allowDeselect={false}
        {...form.getInputProps('boot_loader')}
      />
      <Textarea label="Description" autosize minRows={2} maxRows={6} {...form.getInputProps('description')} />
    </FormDialog>
  );
}
