import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { StoreFeedStatus } from '@contracts/community-store';
import { formatDateTime, formatRelative } from '../../format.js';
import { LoadError } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { FEED_STATE_COLORS, sourceLabel } from './store-labels.js';

function FeedStatus({ feed }: { feed: StoreFeedStatus }) {
  return (
    <Paper withBorder px="sm" py={6} component="li" aria-label={`Source ${sourceLabel(feed.name)}: ${feed.state}`}>
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {sourceLabel(feed.name)}
        </Text>
        <Badge size="sm" variant="light" color={FEED_STATE_COLORS[feed.state]} radius="sm">
          {feed.state}
        </Badge>
        <Text size="xs" c="dimmed">
          {feed.items} {feed.items === 1 ? 'item' : 'items'}
          {feed.fetched_at && (
            <>
              {' · '}
              <span title={formatDateTime(feed.fetched_at)}>fetched {formatRelative(feed.fetched_at)}</span>
            </>
          )}
        </Text>
      </Group>
      {feed.error && (
        <Text size="xs" c={feed.state === 'failed' ? 'red' : 'dimmed'}>
          {feed.error}
        </Text>
      )}
    </Paper>
  );
}

/** Where each source stands: a feed that is down or stale shows here, while the catalog still lists what is available. */
export function FeedStatusStrip() {
  const query = useApiQuery(keys.storeFeeds, (api) => api.store.feeds());
  if (query.isError) return <LoadError what="the store sources" error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return null;
  return (
    <Stack gap={4}>
      <Group gap="xs" component="ul" aria-label="Store sources" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {query.data.map((feed) => (
          <FeedStatus key={feed.name} feed={feed} />
        ))}
      </Group>
    </Stack>
  );
}
