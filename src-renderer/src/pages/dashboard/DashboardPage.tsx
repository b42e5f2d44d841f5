import { Anchor, Card, Group, Progress, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { useCan, useLiveEvents } from '../../app-state.js';
import { BarChart } from '../../components/BarChart.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatBytes, formatUptime } from '../../format.js';
import { useNow } from '../../hooks.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ServiceButtons } from '../services/ServiceControls.js';
import { SERVICE_PAGES } from '../services/service-actions.js';
import { bucketByTime } from './boot-buckets.js';
import { HostsOverviewCard } from './HostsOverviewCard.js';
import { TrendsCard } from './TrendsCard.js';
import { BootingNowCard } from './BootingNowCard.js';
import { FirstRunCard } from '../setup/FirstRunCard.js';
import { DashboardWarnings } from './DashboardWarnings.js';
import { EventList } from './EventList.js';

const LATEST_EVENTS = 12;
const BOOT_KIND = 'boot.script_served';

function ServicesCard() {
  const status = useApiQuery(keys.status, (api) => api.system.status());
  const canOperate = useCan('operator');
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-services">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="dash-services">
          Services
        </Title>
        <Anchor component={Link} to="/services" size="sm">
          All services
        </Anchor>
      </Group>
      <QueryState query={status} what="the status">
        {(data) => (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {data.server_name} · version {data.version} · up {formatUptime(data.uptime_seconds)} · data {formatBytes(data.data_dir.bytes_used)}
              {data.data_dir.fs_free_bytes !== null ? `, ${formatBytes(data.data_dir.fs_free_bytes)} free` : ''}
            </Text>
            <Text size="sm" aria-label="Web UI on the LAN">
              {data.urls.length > 0 ? (
                <>
                  On the LAN:{' '}
                  {data.urls.map((url, index) => (
                    <span key={url}>
                      {index > 0 ? ', ' : ''}
                      <Anchor href={url} target="_blank" rel="noreferrer" inherit>
                        {url}
                      </Anchor>
                    </span>
                  ))}
                </>
              ) : (
                <Text span c="dimmed" inherit>
                  On the LAN: no served interface has a link and an address yet
                </Text>
              )}
            </Text>
            {data.services.list.map((service) => (
              <Stack key={service.name} gap={2}>
                <Group justify="space-between" wrap="nowrap" aria-label={`Service ${service.name}`} role="group">
                  <Group gap="xs" wrap="nowrap">
                    <Text fw={600} size="sm" w={64}>
                      {SERVICE_PAGES[service.name] ? (
                        <Anchor component={Link} to={SERVICE_PAGES[service.name]!} inherit>
                          {service.name}
                        </Anchor>
                      ) : (
                        service.name
                      )}
                    </Text>
                    <StatusBadge value={service.state} />
                  </Group>
                  {canOperate && <ServiceButtons service={service} size="compact-xs" />}
                </Group>
                {service.notice && (
                  <Text size="xs" c="orange.8" pl={72} aria-label={`${service.name} notice`}>
                    {service.notice}
                  </Text>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}

function LeaseUtilisation() {
  const stats = useApiQuery(keys.leaseStats, (api) => api.dhcp.leases.stats(), { refetchInterval: 30_000 });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-leases">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="dash-leases">
          DHCP lease utilisation
        </Title>
        <Anchor component={Link} to="/leases" size="sm">
          Leases
        </Anchor>
      </Group>
      <QueryState query={stats} what="lease statistics">
        {(data) =>
          data.ranges.length === 0 ? (
            <EmptyState>
              No DHCP ranges are configured.{' '}
              <Anchor component={Link} to="/services/dhcp">
                Configure DHCP
              </Anchor>
            </EmptyState>
          ) : (
            <Stack gap="sm">
              {data.ranges.map((range) => {
                const part = (n: number) => (range.size > 0 ? (n / range.size) * 100 : 0);
                const label = `${range.start}–${range.end}`;
                return (
                  <div key={`${range.subnet}-${range.start}`}>
                    <Group justify="space-between" gap="xs">
                      <Text size="sm" className="mono">
                        {label}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {range.used} used, {range.reserved} reserved of {range.size} ({range.utilisation_percent.toFixed(0)}%)
                      </Text>
                    </Group>
                    <Progress.Root size="lg" aria-label={`Utilisation of ${label}: ${range.utilisation_percent.toFixed(0)} percent`}>
                      <Tooltip label={`${range.used} leased`}>
                        <Progress.Section value={part(range.used)} color="blue" />
                      </Tooltip>
                      <Tooltip label={`${range.reserved} reserved`}>
                        <Progress.Section value={part(range.reserved)} color="grape" />
                      </Tooltip>
                      <Tooltip label={`${range.quarantined} quarantined`}>
                        <Progress.Section value={part(range.quarantined)} color="orange" />
                      </Tooltip>
                    </Progress.Root>
                  </div>
                );
              })}
              <Text size="xs" c="dimmed">
                Blue: leased · purple: reserved · orange: quarantined (declined or answered a ping)
              </Text>
            </Stack>
          )
        }
      </QueryState>
    </Card>
  );
}

function BootsChart() {
  const now = useNow(30_000);
  const live = useLiveEvents((state) => state.events);
  const since = new Date(now - 60 * 60_000).toISOString();
  // Keyed by the minute: the window moves on without refetching on every render.
  const boots = useApiQuery([...keys.events, 'boots', Math.floor(now / 60_000)], (api) => api.events.list({ kind: BOOT_KIND, since, size: 500 }));
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-boots">
      <Title order={2} size="h4" id="dash-boots" mb="xs">
        Boots in the last hour
      </Title>
      <QueryState query={boots} what="boots">
        {(data) => {
          const known = new Set(data.data.map((event) => event.id));
          const times = [...data.data, ...live.filter((event) => event.kind === BOOT_KIND && !known.has(event.id))].map((event) => event.created_at);
          return (
            <>
              <BarChart bars={bucketByTime(times, now)} title="Boot scripts served per 5 minutes" unit="boots" />
              <Text size="xs" c="dimmed">
                {times.length} boot script{times.length === 1 ? '' : 's'} served{data.meta.total > data.data.length ? ` (the first ${data.data.length} of ${data.meta.total} are counted)` : ''}.
              </Text>
            </>
          );
        }}
      </QueryState>
    </Card>
  );
}

function LatestEvents() {
  const initial = useApiQuery([...keys.events, 'latest'], (api) => api.events.list({ size: LATEST_EVENTS }));
  const live = useLiveEvents((state) => state.events);
  const liveStatus = useLiveEvents((state) => state.status);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-events">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="dash-events">
          Latest events
        </Title>
        <Group gap="xs">
          <Text size="xs" c={liveStatus === 'live' ? 'teal' : 'orange'}>
            {liveStatus === 'live' ? 'live' : 'reconnecting'}
          </Text>
          <Anchor component={Link} to="/events" size="sm">
            All events
          </Anchor>
        </Group>
      </Group>
      <QueryState query={initial} what="events">
        {(data) => {
          const seen = new Set<number>();
          const merged = [...live, ...data.data].filter((event) => (seen.has(event.id) ? false : (seen.add(event.id), true)));
          merged.sort((a, b) => b.id - a.id);
          const shown = merged.slice(0, LATEST_EVENTS);
          return shown.length === 0 ? <EmptyState>No events yet.</EmptyState> : <EventList events={shown} label="Latest events" />;
        }}
      </QueryState>
    </Card>
  );
}

/** The overview: what needs attention, services, lease use, boots and the live event feed. */
export function DashboardPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Dashboard" description="The state of the boot server at a glance; events arrive live." />
      <FirstRunCard />
      <DashboardWarnings />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ServicesCard />
        <LatestEvents />
        <LeaseUtilisation />
        <BootsChart />
      </SimpleGrid>
      <BootingNowCard />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <HostsOverviewCard />
        <TrendsCard />
      </SimpleGrid>
    </Stack>
  );
}
