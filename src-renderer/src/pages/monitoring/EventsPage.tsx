import type { EventData as AppEvent, EventLevel } from '@contracts/events';
import { Anchor, Button, Card, Code, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../api/api-error.js';
import { useAppState } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState } from '../../components/QueryState.js';
import { RowButton } from '../../components/RowActions.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime } from '../../format.js';
import { asAppEvent } from '../../live/live-events-store.js';
import { useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { EventList } from '../dashboard/EventList.js';

const TAIL_KEPT = 200;
/** How often at most the table is read again while the live tail runs. */
const TABLE_REFRESH_MS = 1000;

/** Live tail: a stream with the page's kind, level and MAC filters; newest first, at most 200 kept. */
function LiveTail({ filters, onEvent }: { filters: Record<string, string>; onEvent: () => void }) {
  const { client } = useAppState();
  const [events, setEvents] = useState<AppEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const filterKey = JSON.stringify(filters);
  // The latest callback, without resubscribing when the page re-renders.
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  useEffect(() => {
    setEvents([]);
    setError(null);
    const params = Object.fromEntries(Object.entries(JSON.parse(filterKey) as Record<string, string>).filter(([, value]) => value !== ''));
    return client.subscribe(
      { stream: 'events', params },
      {
        onMessage: (message) => {
          const event = asAppEvent(message.data);
          if (!event) return;
          setError(null);
          setEvents((current) => [event, ...current.filter((known) => known.id !== event.id)].slice(0, TAIL_KEPT));
          onEventRef.current();
        },
        onError: (err) => setError(describeError(err)),
      },
    );
  }, [client, filterKey]);
  return (
    <Card withBorder component="section" aria-labelledby="tail-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="tail-title">
          Live tail
        </Title>
        <Button size="xs" variant="default" onClick={() => setEvents([])} disabled={events.length === 0}>
          Clear view
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="orange" role="status">
          Stream interrupted: {error}
        </Text>
      )}
      {events.length === 0 ? <EmptyState>Waiting for events that match the filters…</EmptyState> : <EventList events={events} label="Live events" />}
    </Card>
  );
}

/** `/events`: the event log with filters, server paging, details, and a live tail. */
export function EventsPage() {
  const table = useTableParams({ defaultSort: '-id', filters: ['kind', 'level', 'mac', 'since', 'until'] as const });
  const query = useApiPage(keys.events, table.apiParams, (api, params) => api.events.list(params));
  const [tail, setTail] = useState(false);
  const [detail, setDetail] = useState<AppEvent | null>(null);
  // With the live tail on, the table follows it: its first page (newest first) is read again at most once a second.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const followsTail = table.page === 1 && table.sort === '-id';
  const refetch = query.refetch;
  const onTailEvent = useCallback(() => {
    if (!followsTail || refreshTimer.current !== null) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      void refetch();
    }, TABLE_REFRESH_MS);
  }, [followsTail, refetch]);
  useEffect(
    () => () => {
      if (refreshTimer.current !== null) clearTimeout(refreshTimer.current);
    },
    [],
  );
  const columns: Column<AppEvent>[] = [
    { key: 'created_at', header: 'Time', sortKey: 'created_at', render: (e) => <span className="nowrap">{formatDateTime(e.created_at)}</span> },
    { key: 'level', header: 'Level', sortKey: 'level', render: (e) => <StatusBadge value={e.level} /> },
    { key: 'kind', header: 'Kind', sortKey: 'kind', render: (e) => <span className="mono">{e.kind}</span> },
    { key: 'message', header: 'Message', render: (e) => <Text size="sm" className="pre-wrap">{e.message}</Text> },
    {
      key: 'machine',
      header: 'Machine',
      render: (e) =>
        e.mac || e.ip || e.host_id !== null ? (
          <div className="mono">
            {e.host_id !== null ? (
              <Anchor component={Link} to={`/hosts/${e.host_id}`} size="xs">
                {e.host_name ?? `host #${e.host_id}`}
              </Anchor>
            ) : null}
            {e.mac && <div>{e.mac}</div>}
            {e.ip && <div>{e.ip}</div>}
          </div>
        ) : (
          <Dim />
        ),
    },
  ];
  const { kind, level, mac } = table.filters;
  return (
    <Stack gap="md">
      <PageHeader
        title="Events"
        description="What happened: services, DHCP, boots, transfers, power, logins. Newest first."
        actions={<Switch label="Live tail" checked={tail} onChange={(event) => setTail(event.currentTarget.checked)} />}
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search events', placeholder: 'Search kind, message, MAC, IP', width: 240 }}
        filters={[
          { kind: 'text', name: 'kind', label: 'Kind (e.g. dhcp. or boot.)', width: 200 },
          { kind: 'select', name: 'level', label: 'Level', options: filterOptions({ info: 'Info and above', warn: 'Warnings and errors', error: 'Errors only' } satisfies Record<EventLevel, string>), width: 190 },
          { kind: 'text', name: 'mac', label: 'MAC', width: 170 },
          { kind: 'date-range' },
        ]}
      />
      {tail && <LiveTail filters={{ kind: kind ?? '', level: level ?? '', mac: mac ?? '' }} onEvent={onTailEvent} />}
      <ServerTable
        label="Events"
        columns={columns}
        query={query}
        table={table}
        rowKey={(e) => e.id}
        emptyText="No events yet."
        rowActions={(event) =>
          event.detail ? (
            <RowButton label={`Details of event ${event.id}`} onClick={() => setDetail(event)}>
              Details
            </RowButton>
          ) : null
        }
      />
      <Modal opened={detail !== null} onClose={() => setDetail(null)} title={detail ? `${detail.kind} · ${formatDateTime(detail.created_at)}` : ''} size="lg">
        {detail && (
          <Stack gap="xs">
            <Text size="sm">{detail.message}</Text>
            <Code block>{JSON.stringify(detail.detail, null, 2)}</Code>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
