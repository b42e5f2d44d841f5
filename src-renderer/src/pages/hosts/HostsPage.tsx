import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { HOST_LIFECYCLES, type Host, type HostView } from '@contracts/hosts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RowButton } from '../../components/RowActions.js';
import { ServerTable, type Column, type RowKey } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { EffectiveBootCell, LifecycleBadge } from './host-boot-labels.js';
import { HostBatchAssignDialog } from './HostBatchAssignDialog.js';
import { HostDialog, type HostDialogMode } from './HostDialog.js';
import { HostImportDialog } from './HostImportDialog.js';
import { useProfileOptions } from './use-profile-options.js';
import { describeWake } from './wake.js';

export function hostLabel(host: Host): string {
  return host.hostname ?? host.mac;
}

/** `/hosts`: known and discovered machines; create, import, adopt, wake; assign or delete the selected ones. */
export function HostsPage() {
  const table = useTableParams({ defaultSort: 'id', filters: ['group', 'tag', 'profile_id', 'discovered', 'enabled', 'lifecycle'] as const });
  const query = useApiPage(keys.hosts, table.apiParams, (api, params) => api.hosts.list(params));
  const { options } = useProfileOptions();
  const canEdit = useCan('operator');
  const navigate = useNavigate();
  const [selected, setSelected] = useState<Set<RowKey>>(new Set());
  const [dialog, setDialog] = useState<{ mode: HostDialogMode; host: Host | null } | null>(null);
  const [importing, setImporting] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const confirm = useConfirm();
  const selectedIds = [...selected].map(Number);

  const wake = useApiAction((api, host: Host) => api.power.hosts.wake(host.id), {
    invalidate: [keys.wol],
    errorTitle: 'Wake-on-LAN failed',
    onSuccess: (result) => (result.ok ? notifySuccess(describeWake(result)) : notifyError(new Error(describeWake(result)), 'Wake-on-LAN failed')),
  });
  const wakeMany = useApiAction((api, ids: number[]) => api.power.hosts.wakeMany({ ids }), {
    invalidate: [keys.wol],
    onSuccess: (results) => {
      const failed = results.filter((result) => !result.ok);
      if (failed.length === 0) notifySuccess(`Magic packets sent to ${results.length} host(s).`);
      else notifyError(new Error(failed.map(describeWake).join(' ')), `${failed.length} of ${results.length} host(s) not woken`);
      setSelected(new Set());
    },
  });

  const removeMany = useApiAction((api, ids: number[]) => api.hosts.removeMany(ids), {
    invalidate: [keys.hosts],
    errorTitle: 'Nothing was deleted',
    success: (result) => `${result.count} host(s) deleted.`,
    onSuccess: () => setSelected(new Set()),
  });
  const deleteSelected = async () => {
    const ok = await confirm({
      title: 'Delete hosts',
      message: `Delete the ${selectedIds.length} selected host(s) and their DHCP reservations? All are deleted, or none.`,
      confirmLabel: `Delete ${selectedIds.length} host(s)`,
    });
    if (ok) removeMany.mutate(selectedIds);
  };

  const columns: Column<HostView>[] = [
    {
      key: 'hostname',
      header: 'Host',
      sortKey: 'hostname',
      render: (host) => (
        <div>
          <Anchor component={Link} to={`/hosts/${host.id}`} size="sm" fw={500}>
            {hostLabel(host)}
          </Anchor>
          {host.hostname && (
            <Text size="xs" c="dimmed" className="mono">
              {host.mac}
            </Text>
          )}
        </div>
      ),
    },
    { key: 'ip', header: 'IP address', sortKey: 'ip', render: (host) => host.ip ?? (host.last_seen_ip ? <Dim>{host.last_seen_ip} (seen)</Dim> : <Dim />) },
    { key: 'profile', header: 'Boots next', sortKey: 'profile_id', render: (host) => <EffectiveBootCell boot={host.effective_boot} /> },
    {
      key: 'group',
      header: 'Group and tags',
      sortKey: 'group',
      render: (host) =>
        host.group === null && host.tags.length === 0 ? (
          <Dim />
        ) : (
          <Group gap={4}>
            {host.group && <Text size="sm">{host.group}</Text>}
            {host.tags.map((tag) => (
              <Badge key={tag} variant="outline" radius="sm" size="sm" style={{ textTransform: 'none' }}>
                {tag}
              </Badge>
            ))}
          </Group>
        ),
    },
    {
      key: 'status',
      header: 'State',
      sortKey: 'discovered',
      render: (host) => (
        <Group gap={4} wrap="nowrap">
          <LifecycleBadge lifecycle={host.lifecycle} />
          {!host.enabled && (
            <Badge color="gray" variant="light" radius="sm">
              disabled
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'last_boot_at',
      header: 'Last boot',
      sortKey: 'last_boot_at',
      render: (host) => (host.last_boot_at ? <span title={formatDateTime(host.last_boot_at)}>{formatRelative(host.last_boot_at)}</span> : <Dim>never</Dim>),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="Hosts"
        description="Machines Bootwright knows: their boot profile, address and group. Unknown machines that boot are recorded as discovered."
        actions={
          canEdit && (
            <Group gap="xs">
              <Button variant="default" onClick={() => setImporting(true)}>
                Import
              </Button>
              <Button onClick={() => setDialog({ mode: 'create', host: null })}>New host</Button>
            </Group>
          )
        }
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search hosts', placeholder: 'Search MAC, name, IP, tags…', width: 220 }}
        filters={[
          { kind: 'text', name: 'group', label: 'Group', width: 120 },
          { kind: 'text', name: 'tag', label: 'Tag', width: 110 },
          { kind: 'select', name: 'profile_id', label: 'Profile', options, width: 170 },
          { kind: 'select', name: 'discovered', label: 'Discovered', options: filterOptions({ true: 'Discovered only', false: 'Adopted only' }), width: 170 },
          { kind: 'select', name: 'enabled', label: 'Enabled', options: filterOptions({ true: 'Enabled', false: 'Disabled' }), width: 140 },
          { kind: 'select', name: 'lifecycle', label: 'State', options: HOST_LIFECYCLES.map((state) => ({ value: state, label: state })), width: 140 },
        ]}
      >
        {canEdit && (
          <Button variant="default" disabled={selected.size === 0 || wakeMany.isPending} loading={wakeMany.isPending} onClick={() => wakeMany.mutate([...selected].map(Number))}>
            Wake selected ({selected.size})
          </Button>
        )}
        {canEdit && (
          <Button variant="default" disabled={selected.size === 0} onClick={() => setAssigning(true)}>
            Assign selected
          </Button>
        )}
        {canEdit && (
          <Button variant="default" color="red" disabled={selected.size === 0 || removeMany.isPending} loading={removeMany.isPending} onClick={() => void deleteSelected()}>
            Delete selected
          </Button>
        )}
      </TableToolbar>
      <ServerTable
        label="Hosts"
        columns={columns}
        query={query}
        table={table}
        rowKey={(host) => host.id}
        rowName={hostLabel}
        emptyText={
          <Text span inherit>
            No hosts yet. Add one, or let a machine boot: it is recorded as discovered.
          </Text>
        }
        {...(canEdit ? { selection: { selected, onChange: setSelected } } : {})}
        rowActions={
          canEdit
            ? (host) => (
                <>
                  {host.discovered && (
                    <RowButton label={`Adopt ${hostLabel(host)}`} onClick={() => setDialog({ mode: 'adopt', host })}>
                      Adopt
                    </RowButton>
                  )}
                  <RowButton label={`Wake ${hostLabel(host)}`} onClick={() => wake.mutate(host)} disabled={wake.isPending}>
                    Wake
                  </RowButton>
                </>
              )
            : undefined
        }
      />
      <HostImportDialog opened={importing} onClose={() => setImporting(false)} />
      <HostBatchAssignDialog ids={selectedIds} opened={assigning} onClose={() => setAssigning(false)} onDone={() => setSelected(new Set())} />
      <HostDialog
        opened={dialog !== null}
        host={dialog?.host ?? null}
        mode={dialog?.mode ?? 'create'}
        onClose={() => setDialog(null)}
        onSaved={(host) => {
          if (dialog?.mode === 'create') void navigate(`/hosts/${host.id}`);
        }}
      />
    </Stack>
  );
}
