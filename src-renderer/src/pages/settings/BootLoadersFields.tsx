import { ActionIcon, Autocomplete, Button, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { GROUP_PATTERN } from '@contracts/hosts';
import type { BootLoader, BootLoaders } from '@contracts/settings';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { LOADER_OPTIONS, SECURE_BOOT_DOC } from '../hosts/boot-loader-labels.js';

/*
 * Settings → Netboot → Boot loaders (issue 21): the loader x64 and ARM64
 * UEFI machines get by default, and per host group overrides. The form
 * holds the groups as rows (so a name can be typed and checked in place);
 * saving sends the whole `boot_loaders` object.
 */

export type GroupLoaderRow = { group: string; loader: BootLoader };

export type BootLoaderFormFields = { loader_x64: BootLoader; loader_arm64: BootLoader; loader_groups: GroupLoaderRow[] };

const GROUP = new RegExp(GROUP_PATTERN);

export function loaderFormFields(stored: BootLoaders): BootLoaderFormFields {
  return {
    loader_x64: stored.uefi_x64,
    loader_arm64: stored.uefi_arm64,
    loader_groups: Object.entries(stored.groups)
      .map(([group, loader]) => ({ group, loader }))
      .sort((a, b) => a.group.localeCompare(b.group)),
  };
}

export function bootLoadersBody(fields: BootLoaderFormFields): BootLoaders {
  return {
    uefi_x64: fields.loader_x64,
    uefi_arm64: fields.loader_arm64,
    groups: Object.fromEntries(fields.loader_groups.map((row) => [row.group.trim(), row.loader])),
  };
}

/** A row's group name: the hosts' group rule, and one row per group (names match case-insensitively, as on the server). */
export function checkGroupName(value: string, rows: readonly GroupLoaderRow[], index: number): string | null {
  const name = value.trim();
  if (!GROUP.test(name)) return 'A group name: letters, digits, space . _ - (starting with a letter or digit), at most 64';
  const first = rows.findIndex((row) => row.group.trim().toLowerCase() === name.toLowerCase());
  return first !== index ? `"${name}" is already listed (group names match case-insensitively)` : null;
}

/** Where a 400's `boot_loaders.*` field goes in this form; null for other fields. */
export function bootLoaderErrorField(path: string): string | null {
  if (path === 'boot_loaders.uefi_x64') return 'loader_x64';
  if (path === 'boot_loaders.uefi_arm64') return 'loader_arm64';
  if (path === 'boot_loaders' || path.startsWith('boot_loaders.')) return 'loader_groups';
  return null;
}

export function BootLoadersFields({ form: fields, canEdit }: { form: UseFormReturnType<BootLoaderFormFields>; canEdit: boolean }) {
  const groupsQuery = useApiQuery(keys.hostGroups, (api) => api.hosts.groups());
  const rows = fields.getValues().loader_groups;
  const listed = new Set(rows.map((row) => row.group.trim().toLowerCase()));
  const suggestions = (groupsQuery.data?.groups ?? []).map((group) => group.name).filter((name) => !listed.has(name.toLowerCase()));
  const listError = fields.errors.loader_groups;
  return (
    <Stack gap="sm" role="group" aria-labelledby="boot-loaders-title">
      <Title order={3} size="h5" mt="sm" id="boot-loaders-title">
        Boot loaders
      </Title>
      <Text size="sm" c="dimmed">
        What UEFI machines get first when they PXE-boot. GRUB (signed shim → GRUB) boots with Secure Boot on, loads over TFTP only, and boots linux profiles, menus and install tasks; iPXE loads
        over HTTP (faster) and boots every profile type, but Secure Boot must be off. BIOS machines always get iPXE. A host's own setting wins over its group's. See <Code>{SECURE_BOOT_DOC}</Code>.
      </Text>
      <Group grow align="flex-start">
        <Select label="x64 UEFI machines" data={LOADER_OPTIONS} allowDeselect={false} disabled={!canEdit} {...fields.getInputProps('loader_x64')} />
        <Select label="ARM64 UEFI machines" description="iPXE needs ipxe-arm64.efi in the boot root (not bundled)" data={LOADER_OPTIONS} allowDeselect={false} disabled={!canEdit} {...fields.getInputProps('loader_arm64')} />
      </Group>
      <Stack gap={6} role="group" aria-label="Loader per host group">
        <Text size="sm" fw={500}>
          Per host group
        </Text>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No group overrides: every group follows its architecture's default.
          </Text>
        )}
        {rows.map((row, index) => (
          <Group key={index} align="flex-start" wrap="nowrap" gap="xs">
            <Autocomplete
              aria-label={`Group ${index + 1}`}
              placeholder="Group name"
              data={suggestions}
              disabled={!canEdit}
              style={{ flex: 1 }}
              {...fields.getInputProps(`loader_groups.${index}.group`)}
            />
            <Select aria-label={`Loader of group ${row.group.trim() || index + 1}`} data={LOADER_OPTIONS} allowDeselect={false} disabled={!canEdit} w={230} {...fields.getInputProps(`loader_groups.${index}.loader`)} />
            {canEdit && (
              <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove group ${row.group.trim() || index + 1}`} onClick={() => fields.removeListItem('loader_groups', index)}>
                ×
              </ActionIcon>
            )}
          </Group>
        ))}
        {typeof listError === 'string' || typeof listError === 'number' ? (
          <Text size="sm" c="red" role="alert">
            {listError}
          </Text>
        ) : null}
        {canEdit && (
          <Group>
            <Button variant="default" size="xs" onClick={() => fields.insertListItem('loader_groups', { group: suggestions[0] ?? '', loader: 'ipxe' })}>
              Add a group
            </Button>
          </Group>
        )}
      </Stack>
    </Stack>
  );
}
