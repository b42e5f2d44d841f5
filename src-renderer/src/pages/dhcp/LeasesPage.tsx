import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { LeaseStats, LeaseView as Lease } from '@contracts/dhcp';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { ServerTable, type Column, type RowKey } from '../../components/ServerTable.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const COLUMNS: Column<Lease>[] = [
  { key: 'ip', header: 'IP address', sortKey: 'ip', render: (l) => <span className="mono">{l.ip}</span> },
  { key: 'mac', header: 'MAC', sortKey: 'mac', render: (l) => <span className="mono">{l.mac}</span> },
  { key: 'hostname', header: 'Hostname', sortKey: 'hostname', render: (l) => l.hostname ?? <Dim /> },
  {
    key: 'state',
    header: 'State',
    sortKey: 'state',
    render: (l) => (
      <Group gap={4} wrap="nowrap">
        <StatusBadge value={l.state} />
        {l.reserved && (
          <Badge variant="outline" color="grape" radius="sm">
            reserved
          </Badge>
        )}
      </Group>
    ),
  },
  { key: 'subnet', header: 'Subnet', sortKey: 'subnet', render: (l) => l.subnet ?? <Dim /> },
  {
    key: 'expires_at',
    header: 'Expires',
    sortKey: 'expires_at',
    render: (l) => <span title={formatDateTime(l.expires_at)}>{formatRelative(l.expires_at)}</span>,
  },
  { key: 'vendor_class', header: 'Vendor class', sortKey: 'vendor_class', render: (l) => (l.vendor_class ? <Text size="sm" lineClamp={1} maw={220}>{l.vendor_class}</Text> : <Dim />) },
  { key: 'arch', header: 'Architecture', sortKey: 'arch', render: (l) => (l.arch === null ? <Dim /> : <span title={`option 93 type ${l.arch}`}>{l.arch_name ?? l.arch}</span>) },
];

function StatsBar({ stats }: { stats: LeaseStats }) {
  const o = stats.overall;
  const items: [string, string | number][] = [
    ['Leases', o.leases],
    ['Addresses in pools', o.size],
    ['Leased', o.used],
    ['Reserved', o.reserved],
    ['Quarantined', o.quarantined],
    ['Free', o.free],
    ['Utilisation', `${o.utilisation_percent.toFixed(1)}%`],
    ['Expired records', o.expired],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} spacing="xs" component="dl" aria-label="Lease statistics" className="stats-grid">
      {items.map(([label, value]) => (
        <Card key={label} withBorder padding="xs">
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" fw={600} size="lg" m={0}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** `/leases`: the DHCP leases with filters, deletion (one, selected) and pruning of expired ones, plus the statistics. */
export function LeasesPage() {
  const table = useTableParams({ defaultSort: 'ip', filters: ['state', 'subnet'] as const });
  const query = useApiPage(keys.leases, table.apiParams, (api, params) => api.dhcp.leases.list(params));
  const stats = useApiQuery(keys.leaseStats, (api) => api.dhcp.leases.stats());
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const [selected, setSelected] = useState<Set<RowKey>>(new Set());

  const remove = useApiAction((api, mac: string) => api.dhcp.leases.remove(mac), {
    invalidate: [keys.leases],
    success: (lease) => `Lease of ${lease.mac} (${lease.ip}) deleted.`,
  });
  const batch = useApiAction((api, macs: string[]) => api.dhcp.leases.removeMany(macs), {
    invalidate: [keys.leases],
    onSuccess: (results) => {
      const failed = results.filter((result) => !result.ok);
      if (failed.length === 0) notifySuccess(`${results.length} lease(s) deleted.`);
      else notifyError(new Error(failed.map((result) => `${result.mac}: ${result.error ?? 'failed'}`).join('; ')), `${failed.length} lease(s) not deleted`);
      setSelected(new Set());
    },
  });
  // OPNsense's "add static mapping": the address this machine has now, kept for it (a reservation), or the machine as a host
  // (its host record keeps the address through its own reservation).
  const reserve = useApiAction((api, lease: Lease) => api.dhcp.reservations.create({ mac: lease.mac, ip: lease.ip, hostname: lease.hostname }), {
    invalidate: [keys.leases, keys.reservations],
    errorTitle: 'The reservation was not created',
    success: (reservation) => `${reservation.ip} is now reserved for ${reservation.mac}.`,
  });
  const addHost = useApiAction((api, lease: Lease) => api.hosts.create({ mac: lease.mac, ip: lease.ip, ...(lease.hostname ? { hostname: lease.hostname } : {}) }), {
    invalidate: [keys.leases, keys.hosts, keys.reservations],
    errorTitle: 'The host was not created',
    success: (host) => `Host ${host.hostname ?? host.mac} created with ${host.ip ?? 'no fixed address'}.`,
  });
  const prune = useApiAction((api) => api.dhcp.leases.prune(), {
    invalidate: [keys.leases],
    success: (result) => `${result.removed} expired lease(s) removed.`,
  });

  const subnets = [...new Set((stats.data?.ranges ?? []).map((range) => range.subnet))];

  return (
    <Stack gap="md">
      <PageHeader
        title="Leases"
        description="Addresses the DHCP server handed out. Deleting a lease returns its address to the pool."
        actions={
          canEdit && (
            <Button
              variant="default"
              loading={prune.isPending}
              onClick={async () => {
                if (await confirm({ title: 'Remove expired leases?', message: 'Every expired lease record is removed.', confirmLabel: 'Remove expired' })) prune.mutate(undefined);
              }}
            >
              Prune expired
            </Button>
          )
        }
      />
      {stats.data && <StatsBar stats={stats.data} />}
      <TableToolbar
        table={table}
        search={{ label: 'Search leases', placeholder: 'Search MAC, IP, hostname, vendor' }}
        filters={[
          { kind: 'select', name: 'state', label: 'State', options: filterOptions({ active: 'Active', expired: 'Expired' }), width: 150 },
          { kind: 'select', name: 'subnet', label: 'Subnet', options: subnets.map((subnet) => ({ value: subnet, label: subnet })), width: 190 },
        ]}
      >
        {canEdit && (
          <Button
            variant="light"
            color="red"
            disabled={selected.size === 0 || batch.isPending}
            onClick={async () => {
              const macs = [...selected].map(String);
              if (await confirm({ title: `Delete ${macs.length} lease(s)?`, message: `${macs.join(', ')}: their addresses return to the pool.`, confirmLabel: 'Delete leases' })) batch.mutate(macs);
            }}
          >
            Delete selected ({selected.size})
          </Button>
        )}
      </TableToolbar>
      <ServerTable
        label="DHCP leases"
        columns={COLUMNS}
        query={query}
        table={table}
        rowKey={(l) => l.mac}
        rowName={(l) => `${l.ip} (${l.mac})`}
        emptyText="No leases yet: machines get one when they ask the DHCP server for an address."
        {...(canEdit ? { selection: { selected, onChange: setSelected } } : {})}
        rowActions={
          canEdit
            ? (lease) => (
                <>
                  {!lease.reserved && (
                    <RowButton label={`Reserve ${lease.ip} for ${lease.mac}`} onClick={() => reserve.mutate(lease)} disabled={reserve.isPending}>
                      Reserve
                    </RowButton>
                  )}
                  <RowButton label={`Add ${lease.mac} as a host`} onClick={() => addHost.mutate(lease)} disabled={addHost.isPending}>
                    Add as host
                  </RowButton>
                  <DeleteButton what={`lease ${lease.ip}`} message={`${lease.mac} loses ${lease.ip}; the address returns to the pool.`} onConfirm={() => remove.mutate(lease.mac)} />
                </>
              )
            : undefined
        }
      />
    </Stack>
  );
}
