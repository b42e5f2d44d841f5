import type { MetricsHistory } from '@contracts/system';
import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { BarChart } from '../../components/BarChart.js';
import { QueryState } from '../../components/QueryState.js';
import { formatBytes } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** The series charted, with how to show one value. */
const CHARTS: { series: string; title: string; unit: string; format: (value: number) => string }[] = [
  { series: 'dhcp_leases_active', title: 'Active leases', unit: 'leases', format: (value) => String(Math.round(value)) },
  { series: 'boots_ok', title: 'Boots served per minute', unit: 'boots per minute', format: (value) => value.toFixed(1) },
  { series: 'boots_fallback', title: 'Boots that failed per minute', unit: 'failed boots per minute', format: (value) => value.toFixed(1) },
  { series: 'dns_queries', title: 'DNS queries per second', unit: 'queries per second', format: (value) => value.toFixed(1) },
  { series: 'tftp_bytes', title: 'TFTP throughput', unit: 'bytes per second', format: (value) => `${formatBytes(value)}/s` },
  { series: 'http_bytes', title: 'HTTP boot throughput', unit: 'bytes per second', format: (value) => `${formatBytes(value)}/s` },
];

/** One bar per 5 minutes of the hour (the mean of its samples), labelled by its start time. */
function bars(history: MetricsHistory, name: string): { label: string; value: number }[] {
  const points = history.series.find((series) => series.name === name)?.points ?? [];
  const buckets = new Map<string, number[]>();
  for (const point of points) {
    if (point.value === null) continue;
    const at = new Date(point.at);
    at.setMinutes(at.getMinutes() - (at.getMinutes() % 5), 0, 0);
    const label = at.toTimeString().slice(0, 5);
    buckets.set(label, [...(buckets.get(label) ?? []), point.value]);
  }
  return [...buckets].map(([label, values]) => ({ label, value: Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10 }));
}

/** Pool usage, boots (served and failed), DNS, TFTP and HTTP boot over the last hour, from the metrics history (a sample a minute since the server started). */
export function TrendsCard() {
  const query = useApiQuery(keys.metricsHistory, (api) => api.system.metricsHistory(60), { refetchInterval: 60_000 });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="dash-trends">
      <Title order={2} size="h4" id="dash-trends" mb="xs">
        The last hour
      </Title>
      <QueryState query={query} what="the metrics history">
        {(history) => (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {CHARTS.map((chart) => {
              const data = bars(history, chart.series);
              const last = data.at(-1);
              return (
                <div key={chart.series}>
                  <Text size="sm" fw={600}>
                    {chart.title}
                    {last ? `: ${chart.format(last.value)}` : ''}
                  </Text>
                  {data.length === 0 ? <Text size="xs" c="dimmed">No samples yet (one a minute).</Text> : <BarChart bars={data} title={chart.title} unit={chart.unit} height={90} />}
                </div>
              );
            })}
          </SimpleGrid>
        )}
      </QueryState>
    </Card>
  );
}
