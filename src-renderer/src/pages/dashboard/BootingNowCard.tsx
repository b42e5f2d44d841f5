import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useNow } from '../../hooks.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { outcomeLabel } from '../hosts/BootTimeline.js';
import { formatRelative } from '../../format.js';

/**
 * "Booting now": every machine with a boot step in the last 10 minutes, its
 * outcome so far and its latest step. Refreshed as the boot path's events
 * arrive (live-invalidation.ts) and once a minute (boots age out of the window).
 */
export function BootingNowCard() {
  const now = useNow(60_000);
  const query = useApiQuery(keys.bootingNow, (api) => api.hosts.bootingNow(), { refetchInterval: 60_000 });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-booting-now">
      <Title order={2} size="h4" id="dash-booting-now" mb="xs">
        Booting now
      </Title>
      <QueryState query={query} what="the boots under way">
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState>No machine booted in the last 10 minutes.</EmptyState>
          ) : (
            <Stack gap="xs">
              {list.data.map((row) => {
                const last = row.boot.steps.at(-1);
                return (
                  <Group key={row.mac} justify="space-between" wrap="nowrap" role="group" aria-label={`Boot of ${row.hostname ?? row.mac}`}>
                    <Stack gap={0}>
                      <Text size="sm" fw={600}>
                        {row.host_id !== null ? (
                          <Anchor component={Link} to={`/hosts/${row.host_id}`} inherit>
                            {row.hostname ?? row.mac}
                          </Anchor>
                        ) : (
                          <span className="mono">{row.mac}</span>
                        )}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {last ? `${last.summary} · ${formatRelative(last.at, now)}` : ''} · {row.boot.steps.length} steps
                      </Text>
                    </Stack>
                    <StatusBadge value={row.boot.outcome} label={outcomeLabel(row.boot.outcome)} />
                  </Group>
                );
              })}
              {list.meta.total > list.data.length && <Text size="xs" c="dimmed">{list.meta.total - list.data.length} more not shown.</Text>}
            </Stack>
          )
        }
      </QueryState>
    </Card>
  );
}
