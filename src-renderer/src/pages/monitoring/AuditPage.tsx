import type { AuditEntryData as AuditEntry, AuditOutcome } from '@contracts/audit';
import { Group, Stack, Text } from '@mantine/core';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime } from '../../format.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'created_at', header: 'Time', sortKey: 'created_at', render: (a) => <span className="nowrap">{formatDateTime(a.created_at)}</span> },
  {
    key: 'user',
    header: 'User',
    sortKey: 'user',
    render: (a) => (
      <div>
        {a.user}
        <Text size="xs" c="dimmed">
          {a.via === 'ipc' ? 'desktop' : (a.remote_address ?? 'http')}
        </Text>
      </div>
    ),
  },
  { key: 'action', header: 'Action', sortKey: 'action', render: (a) => <span className="mono">{a.action}</span> },
  {
    key: 'resource',
    header: 'Resource',
    sortKey: 'resource_type',
    // The object by name where the answer gave one ("hosts: web01 #14"), else its type and id.
    render: (a) => `${a.resource_type}${a.detail?.['name'] ? `: ${a.detail['name']}` : ''}${a.resource_id ? ` #${a.resource_id}` : ''}`,
  },
  {
    key: 'outcome',
    header: 'Outcome',
    sortKey: 'outcome',
    render: (a) => (
      <Group gap={4} wrap="nowrap">
        <StatusBadge value={a.outcome} />
        <Text size="xs" c="dimmed">
          {a.status}
        </Text>
      </Group>
    ),
  },
  { key: 'request', header: 'Request', render: (a) => (a.aggregate ? <AggregateSummary entry={a} /> : <Text size="xs" className="mono pre-wrap">{`${a.method} ${a.path}`}</Text>) },
];

/** "N unauthenticated requests in minute M", with the counts by method, route and status. */
function AggregateSummary({ entry }: { entry: AuditEntry }) {
  const aggregate = entry.aggregate!;
  const kinds = aggregate.breakdown.map((item) => `${item.count}× ${item.method} ${item.route} → ${item.status}`);
  if (aggregate.other > 0) kinds.push(`${aggregate.other}× other`);
  return (
    <div>
      <Text size="xs">{`${entry.count} unauthenticated request${entry.count === 1 ? '' : 's'} in the minute from ${formatDateTime(aggregate.window_start)}`}</Text>
      <Text size="xs" c="dimmed" className="mono pre-wrap">
        {kinds.join('\n')}
      </Text>
    </div>
  );
}

/** `/audit` (operator): who changed what, through which route, and whether it worked. */
export function AuditPage() {
  const table = useTableParams({ defaultSort: '-id', filters: ['user', 'action', 'resource', 'outcome', 'authenticated', 'since', 'until'] as const });
  const query = useApiPage(keys.audit, table.apiParams, (api, params) => api.audit.list(params));
  return (
    <Stack gap="md">
      <PageHeader title="Audit log" description="Every change made through the API or the desktop app, with who made it." />
      <TableToolbar
        table={table}
        search={{ label: 'Search the audit log', placeholder: 'Search user, action, path', width: 230 }}
        filters={[
          { kind: 'text', name: 'user', label: 'User', width: 140 },
          { kind: 'text', name: 'action', label: 'Action (e.g. hosts.)', width: 170 },
          { kind: 'text', name: 'resource', label: 'Resource type', width: 150 },
          { kind: 'select', name: 'outcome', label: 'Outcome', options: filterOptions({ success: 'Success', failure: 'Failure' } satisfies Record<AuditOutcome, string>), width: 150 },
          { kind: 'select', name: 'authenticated', label: 'Credentials', options: filterOptions({ true: 'Signed in', false: 'Unauthenticated' }), width: 170 },
          { kind: 'date-range' },
        ]}
      />
      <ServerTable label="Audit entries" columns={COLUMNS} query={query} table={table} rowKey={(a) => a.id} emptyText="Nothing was changed yet." />
    </Stack>
  );
}
