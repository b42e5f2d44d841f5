import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Host, HostView } from '@contracts/hosts';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { DetailLoadError, DetailsCard } from '../../components/kit/index.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, Loading, QueryState } from '../../components/QueryState.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatDateTime } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { BootConfigPreview } from './BootConfigPreview.js';
import { EffectiveBootCell, LifecycleBadge } from './host-boot-labels.js';
import { LOADER_NAME } from './boot-loader-labels.js';
import { HostBootTimelineCard } from './BootTimeline.js';
import { HostBaselineRunsCard } from './HostBaselineRunsCard.js';
import { HostInventoryCard } from './HostInventoryCard.js';
import { CreateTaskDialog } from '../netboot/CreateTaskDialog.js';
import { HostDialog, type HostDialogMode } from './HostDialog.js';
import { HostInstallCard } from './HostInstallCard.js';
import { HostPowerCard } from './HostPowerCard.js';
import { hostLabel } from './HostsPage.js';
import { useProfileOptions } from './use-profile-options.js';
import { describeWake } from './wake.js';

function Details({ host }: { host: HostView }) {
  const { nameOf } = useProfileOptions();
  const rows: [string, ReactNode][] = [
    ['MAC address', <span className="mono">{host.mac}</span>],
    ['Hostname', host.hostname ?? <Dim />],
    ['IP address', host.ip ?? <Dim>none (no reservation)</Dim>],
    ['State', <LifecycleBadge lifecycle={host.lifecycle} />],
    ['Boots next', <EffectiveBootCell boot={host.effective_boot} />],
    ['Profile', host.profile_id !== null ? <Anchor component={Link} to={`/profiles/${host.profile_id}`}>{nameOf(host.profile_id)}</Anchor> : <Dim>none of its own (see Boots next)</Dim>],
    ['Group', host.group ?? <Dim />],
    ['Tags', host.tags.length > 0 ? host.tags.join(', ') : <Dim />],
    ['Architecture / platform', `${host.arch ?? '—'} / ${host.platform ?? '—'}`],
    ['Boot loader', host.boot_loader !== null ? LOADER_NAME[host.boot_loader] : <Dim>default: group, else architecture (see the preview)</Dim>],
    ['Last boot', host.last_boot_at ? `${formatDateTime(host.last_boot_at)} from ${host.last_seen_ip ?? '?'}` : <Dim>never</Dim>],
    ['Description', host.description ? <Text size="sm" className="pre-wrap">{host.description}</Text> : <Dim />],
    ['Created / changed', `${formatDateTime(host.created_at)} / ${formatDateTime(host.updated_at)}`],
  ];
  return (
    <DetailsCard id="host-details-title" title="Details" caption="Host details" rows={rows} labelWidth={190} />
  );
}

function WakeHistory({ hostId }: { hostId: number }) {
  const query = useApiPage([...keys.wol, 'history', 'host'], { host_id: hostId, size: 10 }, (api, params) => api.power.wol.history(params));
  return (
    <Card withBorder component="section" aria-labelledby="host-wol-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="host-wol-title">
          Wake-on-LAN history
        </Title>
        <Anchor component={Link} to={`/wol?host_id=${hostId}`} size="sm">
          All
        </Anchor>
      </Group>
      <QueryState query={query} what="the wake history">
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState>Never woken.</EmptyState>
          ) : (
            <Stack gap={4}>
              {list.data.map((entry) => (
                <Group key={entry.id} gap="xs">
                  <StatusBadge value={entry.result} />
                  <Text size="sm">
                    {formatDateTime(entry.created_at)} · {entry.trigger} by {entry.user}
                    {entry.interface ? ` · ${entry.interface}` : ''}
                    {entry.error ? ` · ${entry.error}` : ''}
                  </Text>
                </Group>
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Card>
  );
}

/** `/hosts/:id`: one host, its boot-config preview, wake and power actions. */
export function HostDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1;
  const query = useApiQuery(keys.host(id), valid ? (api) => api.hosts.get(id) : null);
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<HostDialogMode | null>(null);
  const [installing, setInstalling] = useState(false);
  const wake = useApiAction((api, host: Host) => api.power.hosts.wake(host.id), {
    invalidate: [keys.wol],
    errorTitle: 'Wake-on-LAN failed',
    onSuccess: (result) => (result.ok ? notifySuccess(describeWake(result)) : notifyError(new Error(describeWake(result)), 'Wake-on-LAN failed')),
  });
  const remove = useApiAction((api, host: Host) => api.hosts.remove(host.id), {
    invalidate: [keys.hosts, keys.reservations],
    success: (host) => `Host ${hostLabel(host)} deleted.`,
    onSuccess: () => void navigate('/hosts'),
  });

  if (!valid) return <NotFoundPage />;
  if (query.isPending) return <Loading label="Loading the host…" />;
  if (query.isError) return <DetailLoadError what="host" id={id} listPath="/hosts" listName="hosts" error={query.error} onRetry={() => void query.refetch()} />;
  const host = query.data;
  const name = hostLabel(host);

  return (
    <Stack gap="md">
      <PageHeader
        title={name}
        description={
          <>
            <Anchor component={Link} to="/hosts" inherit>
              Hosts
            </Anchor>{' '}
            › host #{host.id}
            {host.discovered && (
              <Badge ml="xs" color="orange" variant="light" size="sm">
                discovered
              </Badge>
            )}
            {!host.enabled && (
              <Badge ml="xs" color="gray" variant="light" size="sm">
                disabled
              </Badge>
            )}
          </>
        }
        actions={
          canEdit && (
            <>
              {host.discovered && <Button onClick={() => setDialog('adopt')}>Adopt</Button>}
              <Button variant="default" onClick={() => setDialog('edit')}>
                Edit
              </Button>
              <Button variant="default" loading={wake.isPending} onClick={() => wake.mutate(host)}>
                Wake
              </Button>
              <Button variant="default" onClick={() => setInstalling(true)}>
                Install an OS
              </Button>
              <Button
                variant="light"
                color="red"
                onClick={async () => {
                  if (await confirm({ title: `Delete host ${name}?`, message: 'The host and its DHCP reservation are deleted. If it boots again it is recorded as discovered.', confirmLabel: 'Delete host' })) {
                    remove.mutate(host);
                  }
                }}
              >
                Delete
              </Button>
            </>
          )
        }
      />
      <HostInstallCard hostId={host.id} />
      <HostBootTimelineCard hostId={host.id} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Details host={host} />
        <Stack gap="md">
          <HostPowerCard hostId={host.id} hostName={name} />
          <WakeHistory hostId={host.id} />
        </Stack>
      </SimpleGrid>
      <HostBaselineRunsCard hostId={host.id} />
      <HostInventoryCard hostId={host.id} />
      <BootConfigPreview hostId={host.id} />
      {installing && <CreateTaskDialog opened onClose={() => setInstalling(false)} preset={{ hostId: host.id }} />}
      <HostDialog opened={dialog !== null} host={host} mode={dialog ?? 'edit'} onClose={() => setDialog(null)} />
    </Stack>
  );
}
