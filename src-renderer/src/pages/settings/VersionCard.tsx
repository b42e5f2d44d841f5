import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useCan } from '../../app-state.js';
import { QueryState } from '../../components/QueryState.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** GET /version, and for admins the update check and verified download. */
export function VersionCard() {
  const query = useApiQuery(keys.version, (api) => api.system.version());
  const isAdmin = useCan('admin');
  const check = useApiAction((api) => api.system.checkUpdate(), { errorTitle: 'Update check failed' });
  const download = useApiAction((api) => api.system.downloadUpdate(), {
    errorTitle: 'Download failed',
    success: (result) => `Version ${result.version} downloaded and verified: ${result.file}`,
  });
  return (
    <Card withBorder component="section" aria-labelledby="version-title">
      <Title order={2} size="h4" id="version-title" mb="sm">
        Version
      </Title>
      <QueryState query={query} what="the version">
        {(version) => (
          <Stack gap="xs">
            <Text size="sm">
              Bootwright {version.version}
              {version.commit ? ` (${version.commit.slice(0, 10)})` : ''}
              {version.build_date ? `, built ${formatDateTime(version.build_date)}` : ''}
            </Text>
            <Text size="sm" c="dimmed">
              Node {version.node}
              {version.electron ? ` · Electron ${version.electron}` : ' · headless'} · {version.platform}/{version.arch}
            </Text>
            {isAdmin && (
              <Group gap="xs">
                <Button variant="default" size="xs" loading={check.isPending} onClick={() => check.mutate(undefined)}>
                  Check for updates
                </Button>
                {check.data?.update_available && (
                  <Button size="xs" loading={download.isPending} onClick={() => download.mutate(undefined)}>
                    Download {check.data.latest}
                  </Button>
                )}
              </Group>
            )}
            {check.data && (
              <Alert color={check.data.update_available ? 'blue' : 'teal'} title={check.data.update_available ? `Version ${check.data.latest} is available` : 'Up to date'}>
                {check.data.update_available ? (
                  <>
                    {check.data.notes && <Text size="sm">{check.data.notes}</Text>}
                    <Anchor href={check.data.url} target="_blank" rel="noreferrer" size="sm">
                      {check.data.url}
                    </Anchor>
                  </>
                ) : (
                  <Text size="sm">The feed's latest version is {check.data.latest}.</Text>
                )}
              </Alert>
            )}
            {download.data && (
              <Text size="sm">
                Saved {download.data.file} ({formatBytes(download.data.bytes)}), SHA-256 verified. Installing is up to you.
              </Text>
            )}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
