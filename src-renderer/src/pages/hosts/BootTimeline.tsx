import { Anchor, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { BootRecord } from '@contracts/hosts';
import { useState } from 'react';
import { Dim } from '../../components/Dim.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatDateTime } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** Boots shown on the host page (the API keeps up to 50). */
const BOOTS_SHOWN = 5;

/** "+1.2 s" from the boot's start: where the seconds of a boot go. */
export function offset(from: string, at: string): string {
  const ms = Date.parse(at) - Date.parse(from);
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 60_000 ? `+${(ms / 1000).toFixed(1)} s` : `+${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function outcomeLabel(outcome: BootRecord['outcome']): string {
  return outcome.replace('_', ' ');
}

/** One boot: its outcome and its steps in order, each at its offset from the start. */
export function BootRecordView({ boot, label }: { boot: BootRecord; label: string }) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <StatusBadge value={boot.outcome} label={outcomeLabel(boot.outcome)} />
        <Text size="sm">
          {formatDateTime(boot.started_at)} · {boot.steps.length} step{boot.steps.length === 1 ? '' : 's'} · last {offset(boot.started_at, boot.last_at) || 'at the start'}
        </Text>
      </Group>
      <Table striped withRowBorders={false} aria-label={label}>
        <Table.Tbody>
          {boot.steps.map((step, index) => (
            <Table.Tr key={`${step.at}-${index}`}>
              <Table.Td className="mono" w={110}>
                {offset(boot.started_at, step.at)}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{step.summary}</Text>
              </Table.Td>
              <Table.Td w={220}>
                <Text size="xs" c="dimmed" className="mono">
                  {step.kind}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * "Boot timeline": the host's latest boots from the event log (DHCP, TFTP and
 * HTTP transfers, the boot script and why, the install), refreshed as events arrive.
 */
export function HostBootTimelineCard({ hostId }: { hostId: number }) {
  const query = useApiQuery(keys.hostTimeline(hostId), (api) => api.hosts.timeline(hostId, BOOTS_SHOWN));
  const [older, setOlder] = useState(false);
  return (
    <Card withBorder component="section" aria-labelledby="host-timeline-title">
      <Title order={2} size="h4" id="host-timeline-title" mb="sm">
        Boot timeline
      </Title>
      <QueryState query={query} what="the boot timeline">
        {(timeline) => {
          const [latest, ...rest] = timeline.boots;
          if (!latest) return <EmptyState>No boot of this machine in the event log.</EmptyState>;
          return (
            <Stack gap="md">
              <BootRecordView boot={latest} label="Steps of the latest boot" />
              {rest.length > 0 &&
                (older ? (
                  rest.map((boot) => <BootRecordView key={boot.started_at} boot={boot} label={`Steps of the boot at ${formatDateTime(boot.started_at)}`} />)
                ) : (
                  <Anchor component="button" size="sm" onClick={() => setOlder(true)}>
                    Show {rest.length} earlier boot{rest.length === 1 ? '' : 's'}
                  </Anchor>
                ))}
              {rest.length === 0 && <Dim>No earlier boot in the event log.</Dim>}
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}
