import type { WolHistoryView as WolHistoryEntry, WolResult, WolSchedule, WolTrigger } from '@contracts/power';
import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { filterOptions, TableToolbar, UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { useNewRow } from '../../components/use-new-row.js';
import { ServerTable, TableSearch, type Column } from '../../components/ServerTable.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { describeRun, previewCron } from './cron-preview.js';
import { ScheduleDialog } from './ScheduleDialog.js';
import { useHostOptions } from './use-host-options.js';

const TRIGGER_LABELS: Record<WolTrigger, string> = { manual: 'Manual', batch: 'Batch', schedule: 'Schedule' };
const RESULT_LABELS: Record<WolResult, string> = { sent: 'Sent', failed: 'Failed' };

function History() {
  const table = useTableParams({ defaultSort: '-id', filters: ['trigger', 'result', 'host_id'] as const });
  const query = useApiPage([...keys.wol, 'history'], table.apiParams, (api, params) => api.power.wol.history(params));
  const { nameOf } = useHostOptions();
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const remove = useApiAction((api, entry: WolHistoryEntry) => api.power.wol.removeHistory(entry.id), { invalidate: [keys.wol], success: 'History entry deleted.' });
  const clear = useApiAction((api) => api.power.wol.clearHistory(), { invalidate: [keys.wol], success: (result) => `${result.deleted} history entries deleted.` });
  const columns: Column<WolHistoryEntry>[] = [
    { key: 'created_at', header: 'When', sortKey: 'created_at', render: (e) => <span title={formatDateTime(e.created_at)}>{formatRelative(e.created_at)}</span> },
    { key: 'result', header: 'Result', sortKey: 'result', render: (e) => <StatusBadge value={e.result} /> },
    {
      key: 'target',
      header: 'Target',
      sortKey: 'mac',
      render: (e) => (
        <div>
          {e.host_id !== null ? (
            <Anchor component={Link} to={`/hosts/${e.host_id}`} size="sm">
              {nameOf(e.host_id)}
            </Anchor>
          ) : null}
          <Text size="xs" c="dimmed" className="mono">
            {e.mac ?? 'no MAC'}
          </Text>
        </div>
      ),
    },
    { key: 'interface', header: 'Sent on', render: (e) => (e.interface ? `${e.interface} (port ${e.port})` : <Dim>nothing sent</Dim>) },
    { key: 'trigger', header: 'Trigger', sortKey: 'trigger', render: (e) => e.trigger },
    { key: 'user', header: 'By', sortKey: 'user', render: (e) => e.user },
    { key: 'error', header: 'Error', render: (e) => (e.error ? <Text size="sm" c="red">{e.error}</Text> : <Dim />) },
  ];
  return (
    <Stack gap="sm">
      <TableToolbar
        table={table}
        search={{ label: 'Search the wake history', placeholder: 'Search MAC, interface, user, error' }}
        filters={[
          { kind: 'select', name: 'trigger', label: 'Trigger', options: filterOptions(TRIGGER_LABELS), width: 150 },
          { kind: 'select', name: 'result', label: 'Result', options: filterOptions(RESULT_LABELS), width: 140 },
        ]}
      >
        {table.filters.host_id && (
          <Button variant="light" size="xs" onClick={() => table.setFilter('host_id', null)}>
            Host {nameOf(Number(table.filters.host_id))} only ×
          </Button>
        )}
        {canEdit && (
          <Button
            variant="subtle"
            color="red"
            ml="auto"
            onClick={async () => {
              if (await confirm({ title: 'Clear the whole wake history?', message: 'Every history entry is deleted (the deletion is audit-logged).', confirmLabel: 'Clear history' })) clear.mutate(undefined);
            }}
          >
            Clear history
          </Button>
        )}
      </TableToolbar>
      <ServerTable
        label="Wake history"
        columns={columns}
        query={query}
        table={table}
        rowKey={(e) => e.id}
        emptyText="No machine was woken yet. Wake hosts from the hosts page or with a schedule."
        rowActions={canEdit ? (entry) => <DeleteButton what={`history entry #${entry.id}`} message="The entry is removed from the history." onConfirm={() => remove.mutate(entry)} /> : undefined}
      />
    </Stack>
  );
}

function Schedules() {
  const table = useTableParams({ defaultSort: 'name', prefix: 's_' });
  const query = useApiPage([...keys.wol, 'schedules'], table.apiParams, (api, params) => api.power.schedules.list(params));
  const { nameOf } = useHostOptions();
  const canEdit = useCan('operator');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<WolSchedule | null>(null);
  const { highlight, markNew } = useNewRow();
  const pause = useApiAction((api, schedule: WolSchedule) => api.power.schedules.update(schedule.id, { enabled: !schedule.enabled }), {
    invalidate: [keys.wol],
    success: (schedule) => (schedule.enabled ? `Schedule ${schedule.name} resumed.` : `Schedule ${schedule.name} paused.`),
  });
  const remove = useApiAction((api, schedule: WolSchedule) => api.power.schedules.remove(schedule.id), {
    invalidate: [keys.wol],
    success: (schedule) => `Schedule ${schedule.name} deleted.`,
  });
  const columns: Column<WolSchedule>[] = [
    { key: 'name', header: 'Name', sortKey: 'name', render: (s) => <Text size="sm" fw={500}>{s.name}</Text> },
    {
      key: 'targets',
      header: 'Wakes',
      render: (s) => (
        <Text size="sm" lineClamp={2} maw={260}>
          {s.host_ids ? s.host_ids.map((id) => nameOf(id)).join(', ') : (s.macs ?? []).join(', ')}
        </Text>
      ),
    },
    {
      key: 'when',
      header: 'When',
      render: (s) => {
        if (s.at) return `Once, ${formatDateTime(s.at)}`;
        const preview = s.cron ? previewCron(s.cron, s.timezone, 1) : null;
        return (
          <div>
            <span className="mono">{s.cron}</span> <Dim>({s.timezone})</Dim>
            {preview?.ok && <Text size="xs" c="dimmed">e.g. {describeRun(preview.runs[0]!, s.timezone)}</Text>}
          </div>
        );
      },
    },
    { key: 'enabled', header: 'Enabled', sortKey: 'enabled', render: (s) => (s.enabled ? 'Yes' : <StatusBadge value="paused" label="Paused" />) },
    { key: 'next_run_at', header: 'Next run', sortKey: 'next_run_at', render: (s) => (s.next_run_at ? <span title={formatDateTime(s.next_run_at)}>{formatRelative(s.next_run_at)}</span> : <Dim>none</Dim>) },
    {
      key: 'last_run_at',
      header: 'Last run',
      sortKey: 'last_run_at',
      render: (s) =>
        s.last_run_at ? (
          <Group gap={4} wrap="nowrap">
            <span title={formatDateTime(s.last_run_at)}>{formatRelative(s.last_run_at)}</span>
            {s.last_result && <StatusBadge value={s.last_result} />}
          </Group>
        ) : (
          <Dim>never</Dim>
        ),
    },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <TableSearch table={table} label="Search schedules" />
        {canEdit && <Button onClick={() => setCreating(true)}>New schedule</Button>}
      </Group>
      <ServerTable
        label="Wake schedules"
        columns={columns}
        query={query}
        table={table}
        rowKey={(s) => s.id}
        highlight={highlight}
        emptyText="No schedules. A schedule wakes machines at set times, e.g. before the working day."
        rowActions={
          canEdit
            ? (schedule) => (
                <>
                  <RowButton label={`Edit schedule ${schedule.name}`} onClick={() => setEditing(schedule)}>
                    Edit
                  </RowButton>
                  <RowButton label={`${schedule.enabled ? 'Pause' : 'Resume'} schedule ${schedule.name}`} onClick={() => pause.mutate(schedule)} disabled={pause.isPending}>
                    {schedule.enabled ? 'Pause' : 'Resume'}
                  </RowButton>
                  <DeleteButton what={`schedule ${schedule.name}`} message="Its future runs are cancelled." onConfirm={() => remove.mutate(schedule)} />
                </>
              )
            : undefined
        }
      />
      <ScheduleDialog opened={creating} onClose={() => setCreating(false)} onSaved={(saved) => markNew(saved.id)} />
      <ScheduleDialog opened={editing !== null} onClose={() => setEditing(null)} schedule={editing} onSaved={(saved) => markNew(saved.id)} />
    </Stack>
  );
}

function Interfaces() {
  const query = useApiQuery([...keys.wol, 'interfaces'], (api) => api.power.wol.interfaces());
  return (
    <QueryState query={query} what="the interfaces">
      {(list) =>
        list.length === 0 ? (
          <EmptyState>No interface can send Wake-on-LAN (one needs an IPv4 address with a broadcast address, /30 or larger).</EmptyState>
        ) : (
          <Table striped>
            <caption className="visually-hidden">Interfaces that can send Wake-on-LAN</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Interface</Table.Th>
                <Table.Th>Our address</Table.Th>
                <Table.Th>Subnet</Table.Th>
                <Table.Th>Broadcast</Table.Th>
                <Table.Th>Served</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((nic) => (
                <Table.Tr key={`${nic.name}-${nic.address}`}>
                  <Table.Th scope="row">{nic.name}</Table.Th>
                  <Table.Td className="mono">{nic.address}</Table.Td>
                  <Table.Td className="mono">{nic.subnet}</Table.Td>
                  <Table.Td className="mono">{nic.broadcast}</Table.Td>
                  <Table.Td>{nic.served ? <Badge variant="light">served</Badge> : <Dim>no</Dim>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      }
    </QueryState>
  );
}

/** `/wol`: the wake history, schedules (cron, with a next-run preview) and the interfaces WOL can use. */
export function WolPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Wake-on-LAN" description="Magic packets sent to wake machines, by hand or on a schedule." />
      <UrlTabs
        tabs={[
          { value: 'history', label: 'History', panel: <History /> },
          { value: 'schedules', label: 'Schedules', panel: <Schedules /> },
          { value: 'interfaces', label: 'Interfaces', panel: <Interfaces /> },
        ]}
      />
    </Stack>
  );
}
