import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { BOOT_TYPES, type ProfileView } from '@contracts/profiles';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, TableFilter, TableSearch, TableTextFilter, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { BOOT_TYPE_LABELS } from './boot-type-labels.js';
import { ProfileUsageText } from './ProfileUsageText.js';

const COLUMNS: Column<ProfileView>[] = [
  {
    key: 'name',
    header: 'Name',
    sortKey: 'name',
    render: (p) => (
      <Anchor component={Link} to={`/profiles/${p.id}`} size="sm" fw={500}>
        {p.name}
      </Anchor>
    ),
  },
  { key: 'boot_type', header: 'Boot type', sortKey: 'boot_type', render: (p) => <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>{BOOT_TYPE_LABELS[p.boot_type]}</Badge> },
  { key: 'description', header: 'Description', render: (p) => (p.description ? <Text size="sm" lineClamp={2}>{p.description}</Text> : <Dim />) },
  { key: 'groups', header: 'Default for groups', render: (p) => (p.default_for_groups.length > 0 ? p.default_for_groups.join(', ') : <Dim />) },
  { key: 'used_by', header: 'Used by', render: (p) => <ProfileUsageText profileId={p.id} usage={p.used_by} /> },
  { key: 'script_version', header: 'Version', sortKey: 'script_version', numeric: true, render: (p) => p.script_version },
  { key: 'updated_at', header: 'Changed', sortKey: 'updated_at', render: (p) => <span title={formatDateTime(p.updated_at)}>{formatRelative(p.updated_at)}</span> },
];

/** `/profiles`: boot profiles with type filter and search; a profile opens its editor. */
export function ProfilesPage() {
  const table = useTableParams({ defaultSort: 'name', filters: ['boot_type', 'group'] as const });
  const query = useApiPage(keys.profiles, table.apiParams, (api, params) => api.profiles.list(params));
  const canEdit = useCan('operator');
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <PageHeader
        title="Profiles"
        description="What a machine boots: an iPXE script, a Linux kernel, a chained URL, a disk image, the local disk or a menu. Scripts are versioned."
        actions={canEdit && <Button onClick={() => void navigate('/profiles/new')}>New profile</Button>}
      />
      <Group gap="sm">
        <TableSearch table={table} label="Search profiles" placeholder="Search name, description, type, groups" />
        <TableFilter table={table} name="boot_type" label="Boot type" options={BOOT_TYPES.map((type) => ({ value: type, label: BOOT_TYPE_LABELS[type] }))} width={210} />
        <TableTextFilter table={table} name="group" label="Default for group" width={170} />
      </Group>
      <ServerTable label="Boot profiles" columns={COLUMNS} query={query} table={table} rowKey={(p) => p.id} emptyText="No profiles yet. Create one to tell machines what to boot." />
    </Stack>
  );
}
