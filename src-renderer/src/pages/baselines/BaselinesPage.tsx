import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { Baseline } from '@contracts/baselines';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, TableSearch, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { AssignedLookup } from './AssignedLookup.js';
import { assignmentSummary, OS_FAMILY_LABELS } from './baseline-form-model.js';

const COLUMNS: Column<Baseline>[] = [
  {
    key: 'name',
    header: 'Name',
    sortKey: 'name',
    render: (b) => (
      <Group gap="xs" wrap="nowrap">
        <Anchor component={Link} to={`/baselines/${b.id}`} size="sm" fw={500}>
          {b.name}
        </Anchor>
        {b.assign.is_default && (
          <Badge size="sm" variant="light" color="teal" radius="sm">
            default
          </Badge>
        )}
      </Group>
    ),
  },
  { key: 'os_family', header: 'OS family', render: (b) => OS_FAMILY_LABELS[b.os_family] },
  { key: 'scripts', header: 'Scripts', numeric: true, render: (b) => b.scripts.length },
  {
    key: 'assign',
    header: 'Assigned to',
    render: (b) => {
      const summary = assignmentSummary(b.assign);
      return summary ? <Text size="sm">{summary}</Text> : <Dim />;
    },
  },
  { key: 'updated_at', header: 'Changed', sortKey: 'updated_at', render: (b) => <span title={formatDateTime(b.updated_at)}>{formatRelative(b.updated_at)}</span> },
];

/** `/baselines`: the post-install baselines, and which one applies to a machine. */
export function BaselinesPage() {
  const table = useTableParams({ defaultSort: 'name' });
  const query = useApiPage(keys.baselines, table.apiParams, (api, params) => api.baselines.list(params));
  const canEdit = useCan('operator');
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <PageHeader
        title="Baselines"
        description="Ordered scripts an installed machine runs once its OS is in place, and who they are assigned to."
        actions={canEdit && <Button onClick={() => void navigate('/baselines/new')}>New baseline</Button>}
      />
      <Group gap="sm">
        <TableSearch table={table} label="Search baselines" placeholder="Search name, description" />
      </Group>
      <ServerTable label="Baselines" columns={COLUMNS} query={query} table={table} rowKey={(b) => b.id} emptyText="No baselines yet. Create one, or import one from the store." />
      <AssignedLookup />
    </Stack>
  );
}
