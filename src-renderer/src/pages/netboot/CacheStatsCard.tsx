import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { QueryState } from '../../components/QueryState.js';
import { formatBytes } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/** The download cache: how full, how useful (hits, bytes served), and "Empty cache". */
export function CacheStatsCard() {
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const query = useApiQuery(keys.netbootCache, (api) => api.netboot.cache.stats());
  const empty = useApiAction((api) => api.netboot.cache.empty(), {
    invalidate: [keys.netbootCache, keys.netbootFiles],
    errorTitle: 'The cache was not emptied',
    success: 'Download cache emptied.',
  });
  return (
    <Card withBorder component="section" aria-labelledby="netboot-cache-title">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={2} size="h4" id="netboot-cache-title">
            Download cache
          </Title>
          {query.data?.offline && (
            <Badge color="orange" variant="light" radius="sm" style={{ textTransform: 'none' }}>
              offline: no downloads
            </Badge>
          )}
        </Group>
        {canEdit && (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={empty.isPending}
            disabled={!query.data || query.data.entries === 0}
            onClick={async () => {
              if (await confirm({ title: 'Empty the download cache?', message: 'Every downloaded boot file is deleted. Entries that are not local are downloaded again at their next boot (or fail while offline).', confirmLabel: 'Empty cache' })) {
                empty.mutate(undefined);
              }
            }}
          >
            Empty cache
          </Button>
        )}
      </Group>
      <QueryState query={query} what="the cache statistics">
        {(stats) => {
          const used = stats.max_bytes > 0 ? Math.min(100, (stats.size_bytes / stats.max_bytes) * 100) : 0;
          const lookups = stats.hits + stats.misses;
          return (
            <Stack gap="sm">
              <Progress value={used} aria-label={`Cache use: ${formatBytes(stats.size_bytes)} of ${formatBytes(stats.max_bytes)}`} color={used > 90 ? 'orange' : 'blue'} />
              <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
                <Figure label="Size">
                  {formatBytes(stats.size_bytes)} of {formatBytes(stats.max_bytes)}
                </Figure>
                <Figure label="Files">{stats.entries}</Figure>
                <Figure label="Hit rate">{lookups === 0 ? '—' : `${Math.round((stats.hits / lookups) * 100)} % (${stats.hits}/${lookups})`}</Figure>
                <Figure label="Served">{formatBytes(stats.bytes_served)}</Figure>
                <Figure label="Downloaded">{formatBytes(stats.bytes_downloaded)}</Figure>
                <Figure label="Evictions / active">
                  {stats.evictions} / {stats.downloads_active}
                </Figure>
              </SimpleGrid>
              <Text size="xs" c="dimmed" className="mono">
                {stats.dir}
              </Text>
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}
