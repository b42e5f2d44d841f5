import { Anchor, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DhcpReservation as Reservation } from '@contracts/dhcp';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { PageHeader } from '../../components/PageHeader.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { useNewRow } from '../../components/use-new-row.js';
import { ServerTable, TableSearch, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ReservationDialog } from './ReservationDialog.js';

const COLUMNS: Column<Reservation>[] = [
  { key: 'ip', header: 'IP address', sortKey: 'ip', render: (r) => <span className="mono">{r.ip}</span> },
  { key: 'mac', header: 'MAC', sortKey: 'mac', render: (r) => <span className="mono">{r.mac}</span> },
  { key: 'hostname', header: 'Hostname', sortKey: 'hostname', render: (r) => r.hostname ?? <Dim /> },
  { key: 'boot_file', header: 'Boot file', render: (r) => r.boot_file ?? <Dim>default</Dim> },
  { key: 'options', header: 'Options', render: (r) => (r.options.length > 0 ? r.options.map((o) => o.code).join(', ') : <Dim>none</Dim>) },
  {
    key: 'host',
    header: 'Host',
    sortKey: 'host_id',
    render: (r) =>
      r.host_id !== null ? (
        <Anchor component={Link} to={`/hosts/${r.host_id}`} size="sm">
          Host #{r.host_id}
        </Anchor>
      ) : (
        <Dim />
      ),
  },
];

/** `/dhcp/reservations`: fixed addresses per MAC (CRUD). */
export function ReservationsPage() {
  const table = useTableParams({ defaultSort: 'ip' });
  const query = useApiPage(keys.reservations, table.apiParams, (api, params) => api.dhcp.reservations.list(params));
  const canEdit = useCan('operator');
  const [editing, setEditing] = useState<Reservation | null>(null);
  const { highlight, markNew } = useNewRow();
  const [open, setOpen] = useState(false);
  const remove = useApiAction((api, reservation: Reservation) => api.dhcp.reservations.remove(reservation.id), {
    invalidate: [keys.reservations, keys.leases],
    success: (reservation) => `Reservation ${reservation.ip} deleted.`,
  });
  const edit = (reservation: Reservation | null) => {
    setEditing(reservation);
    setOpen(true);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title="Reservations"
        description="Fixed DHCP addresses per MAC. Hosts with an IP address keep their reservation here in step."
        actions={canEdit && <Button onClick={() => edit(null)}>New reservation</Button>}
      />
      <Group>
        <TableSearch table={table} label="Search reservations" placeholder="Search MAC, IP, hostname" />
      </Group>
      <ServerTable
        label="DHCP reservations"
        columns={COLUMNS}
        query={query}
        table={table}
        rowKey={(r) => r.id}
        highlight={highlight}
        emptyText="No reservations. Reserve an address for a MAC here, or give a host an IP address."
        rowActions={
          canEdit
            ? (reservation) => (
                <>
                  <RowButton label={`Edit reservation ${reservation.ip}`} onClick={() => edit(reservation)}>
                    Edit
                  </RowButton>
                  <DeleteButton
                    what={`reservation ${reservation.ip}`}
                    message={`${reservation.mac} no longer gets ${reservation.ip} for sure.`}
                    onConfirm={() => remove.mutate(reservation)}
                  />
                </>
              )
            : undefined
        }
      />
      <ReservationDialog opened={open} reservation={editing} onClose={() => setOpen(false)} onSaved={(saved) => markNew(saved.id)} />
    </Stack>
  );
}
