import { HOST_LIFECYCLES, type HostLifecycle } from '@contracts/hosts';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { formatRelative } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const LIFECYCLE_LABELS: Record<HostLifecycle, string> = {
  new: 'New',
  discovered: 'Discovered',
  ready: 'Ready',
  installing: 'Installing',
  deployed: 'Deployed',
  failed: 'Failed',
};

/**
 * Hosts by lifecycle state (each a link to the filtered list), the machines
 * waiting for adoption and the boots that failed in the last hour: "what is
 * broken" next to "what is booting" (GET /hosts/summary).
 */
export function HostsOverviewCard() {
  const query = useApiQuery(keys.hostSummary, (api) => api.hosts.summary(), { refetchInterval: 30_000 });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-hosts">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="dash-hosts">
          Hosts
        </Title>
        <Anchor component={Link} to="/hosts" size="sm">
          All hosts
        </Anchor>
      </Group>
      <QueryState query={query} what="the hosts summary">
        {(summary) => (
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs" component="dl" aria-label="Hosts by state" className="plain-list">
              {HOST_LIFECYCLES.map((state) => (
                <div key={state}>
                  <Text component="dt" size="xs" c="dimmed">
                    {LIFECYCLE_LABELS[state]}
                  </Text>
                  <Text component="dd" fw={700} size="lg" c={state === 'failed' && summary.by_lifecycle[state] > 0 ? 'red' : undefined} m={0}>
                    <Anchor component={Link} to={`/hosts?lifecycle=${state}`} inherit c="inherit" underline="hover">
                      {summary.by_lifecycle[state]}
                    </Anchor>
                  </Text>
                </div>
              ))}
            </SimpleGrid>
            {summary.waiting_adoption > 0 && (
              <Text size="sm">
                <Anchor component={Link} to="/hosts?discovered=true">
                  {summary.waiting_adoption} machine{summary.waiting_adoption === 1 ? '' : 's'} waiting for adoption
                </Anchor>
              </Text>
            )}
            <Text size="sm" fw={600}>
              Failed boots in the last hour
            </Text>
            {summary.failed_boots_last_hour.length === 0 ? (
              <EmptyState>None.</EmptyState>
            ) : (
              <Stack gap={4} component="ul" className="plain-list" aria-label="Failed boots in the last hour">
                {summary.failed_boots_last_hour.slice(0, 8).map((failed) => (
                  <Text component="li" size="sm" key={`${failed.mac}-${failed.boot.started_at}`}>
                    {failed.host_id !== null ? (
                      <Anchor component={Link} to={`/hosts/${failed.host_id}`}>
                        {failed.hostname ?? failed.mac}
                      </Anchor>
                    ) : (
                      <span className="mono">{failed.mac}</span>
                    )}{' '}
                    — {failed.boot.steps.at(-1)?.summary ?? 'failed'} · {formatRelative(failed.boot.last_at)}
                  </Text>
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
