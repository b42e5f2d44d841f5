import { Alert, Card, Stack, Title } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ServiceStateHeader } from '../services/ServiceStateHeader.js';
import { NfsExportsCard } from './NfsExportsCard.js';
import { NfsSettingsForm } from './NfsSettingsForm.js';
import { NfsStatusCard } from './NfsStatusCard.js';
import { lanHost } from './nfs-model.js';

/** Client counters move without events (a read is no event): the status is polled too while the page is open. */
const STATUS_POLL_MS = 5000;

/** `/services/nfs`: the read-only NFS v3 server's settings, exports (folders and OS images), and who mounts what. */
export function NfsPage() {
  const settings = useApiQuery(keys.nfsSettings, (api) => api.nfs.settings.get());
  const status = useApiQuery(keys.nfsStatus, (api) => api.nfs.status(), { refetchInterval: STATUS_POLL_MS });
  const images = useApiQuery([...keys.osImages, 'nfs-names'], (api) => api.osImages.list({ size: 500 }));
  const system = useApiQuery(keys.status, (api) => api.system.status());
  const host = lanHost(system.data?.urls ?? []);

  return (
    <Stack gap="md">
      <PageHeader title="NFS" description="A read-only NFS v3 server: folders and OS images for installers and live systems that boot from NFS." />
      <ServiceStateHeader name="nfs" />
      {!host && system.data && (
        <Alert color="yellow" role="note">
          No served interface has a LAN address yet: the mount commands below show a placeholder.
        </Alert>
      )}
      <QueryState query={settings} what="NFS settings">
        {(view) => (
          <>
            <NfsExportsCard settings={view} automatic={(status.data?.exports ?? []).filter((entry) => entry.automatic)} images={images.data?.data ?? []} host={host} portmapperMode={status.data?.portmapper.mode ?? null} />
            <Card withBorder component="section" aria-labelledby="nfs-settings-title">
              <Title order={2} size="h4" id="nfs-settings-title" mb="sm">
                Settings
              </Title>
              <NfsSettingsForm settings={view} />
            </Card>
          </>
        )}
      </QueryState>
      <QueryState query={status} what="the NFS status">
        {(data) => <NfsStatusCard status={data} />}
      </QueryState>
    </Stack>
  );
}
