import { Alert, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useCan } from '../../app-state.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ServiceButtons } from '../services/ServiceControls.js';
import { NfsExportsCard } from './NfsExportsCard.js';
import { NfsSettingsForm } from './NfsSettingsForm.js';
import { NfsStatusCard } from './NfsStatusCard.js';
import { lanHost } from './nfs-model.js';

/** Client counters move without events (a read is no event): the status is polled too while the page is open. */
const STATUS_POLL_MS = 5000;

/** The service's state and its Start/Stop/Restart, like the services page shows them. */
function ServiceStateHeader() {
  const services = useApiQuery(keys.services, (api) => api.services.list());
  const canOperate = useCan('operator');
  const service = services.data?.find((entry) => entry.name === 'nfs');
  if (!service) return null;
  return (
    <Card withBorder padding="sm" component="section" aria-label="NFS service">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            Service
          </Text>
          <StatusBadge value={service.state} />
          {service.listen.map((address) => (
            <Code key={address}>{address}</Code>
          ))}
        </Group>
        {canOperate && <ServiceButtons service={service} />}
      </Group>
      {(service.last_error ?? service.notice) && (
        <Text size="sm" c={service.last_error ? 'red' : 'orange.8'} mt="xs" className="pre-wrap">
          {service.last_error ?? service.notice}
        </Text>
      )}
    </Card>
  );
}

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
      <ServiceStateHeader />
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
