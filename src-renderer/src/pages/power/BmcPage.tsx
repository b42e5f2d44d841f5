import { Anchor, Button, Menu, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { BMC_BATCH_ACTIONS, type BmcBatchAction, type BmcConfigView as BmcConfig, type BmcProtocol, type PowerOutcome, type PowerState } from '@contracts/power';
import { useCan, useLiveEvents } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useNewRow } from '../../components/use-new-row.js';
import { ServerTable, type Column, type RowKey } from '../../components/ServerTable.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { BmcConfigDialog } from './BmcConfigDialog.js';
import { BmcImportDialog } from './BmcImportDialog.js';
import { BmcProbeDialog } from './BmcProbeDialog.js';
import { BootDeviceDialog } from './BootDeviceDialog.js';
import { useHostOptions } from './use-host-options.js';

/** A row's actions: the batch actions (power-on, power-off, restart, status) and refresh. */
const ROW_ACTIONS = [...BMC_BATCH_ACTIONS, 'refresh'] as const;
type RowAction = (typeof ROW_ACTIONS)[number];
const PROTOCOL_LABELS: Record<BmcProtocol, string> = { ipmi: 'IPMI', redfish: 'Redfish' };
const POWER_STATE_LABELS: Record<PowerState, string> = { on: 'On', off: 'Off', unknown: 'Unknown' };

const ACTION_LABELS: Record<RowAction, string> = { 'power-on': 'Power on', 'power-off': 'Power off', restart: 'Restart', status: 'Read power state', refresh: 'Refresh vendor and state' };
const DESTRUCTIVE: Partial<Record<RowAction, string>> = { 'power-off': 'cuts the power at once', restart: 'resets the machine at once' };

/** The progress of the running batch, from the live `bmc.batch.progress` events of this action. */
function BatchProgress({ action, since }: { action: BmcBatchAction; since: number }) {
  const progress = useLiveEvents((state) =>
    state.events.find((event) => event.kind === 'bmc.batch.progress' && event.detail?.action === action && Date.parse(event.created_at) >= since - 1000),
  );
  const done = Number(progress?.detail?.done ?? 0);
  const total = Number(progress?.detail?.total ?? 0);
  return (
    <Stack gap={2} w={260} role="status">
      <Text size="xs">{total > 0 ? `${ACTION_LABELS[action]}: ${done} of ${total} done` : `${ACTION_LABELS[action]}: starting…`}</Text>
      <Progress value={total > 0 ? (done / total) * 100 : 5} animated aria-label={`Batch progress: ${done} of ${total}`} />
    </Stack>
  );
}

/** `/bmc`: BMC configs with their power state, probe, CSV import, power actions one by one or in batches. */
export function BmcPage() {
  const table = useTableParams({ defaultSort: 'name', filters: ['protocol', 'power_state'] as const });
  const query = useApiPage(keys.bmc, table.apiParams, (api, params) => api.power.bmc.list(params));
  const { nameOf } = useHostOptions();
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const [selected, setSelected] = useState<Set<RowKey>>(new Set());
  const [editing, setEditing] = useState<{ config: BmcConfig | null } | null>(null);
  const { highlight, markNew } = useNewRow();
  const [probing, setProbing] = useState(false);
  const [importing, setImporting] = useState(false);
  const [bootDevice, setBootDevice] = useState<BmcConfig | null>(null);
  const [batchStart, setBatchStart] = useState(0);

  const act = useApiAction(
    (api, input: { config: BmcConfig; action: RowAction }): Promise<Pick<PowerOutcome, 'power_state' | 'config'>> =>
      input.action === 'status'
        ? api.power.bmc.status(input.config.id)
        : input.action === 'refresh'
          ? api.power.bmc.refresh(input.config.id).then((config) => ({ power_state: config.power_state, config }))
          : api.power.bmc.power(input.config.id, input.action),
    {
      invalidate: [keys.bmc],
      errorTitle: 'The BMC action failed',
      success: (result, input) => `${input.config.name}: ${ACTION_LABELS[input.action].toLowerCase()} done; power ${result.power_state ?? 'unknown'}.`,
    },
  );
  const batch = useApiAction((api, input: { action: BmcBatchAction; ids: number[] }) => api.power.bmc.batch(input.action, input.ids), {
    invalidate: [keys.bmc],
    onSuccess: (result, input) => {
      const failed = result.results.filter((item) => !item.ok);
      if (failed.length === 0) notifySuccess(`${ACTION_LABELS[input.action]}: ${result.results.length} BMC(s) done.`);
      else notifyError(new Error(failed.map((item) => `#${item.id}: ${item.error ?? 'failed'}`).join('; ')), `${failed.length} of ${result.results.length} BMC(s) failed`);
    },
  });
  const remove = useApiAction((api, config: BmcConfig) => api.power.bmc.remove(config.id), {
    invalidate: [keys.bmc],
    success: (config) => `BMC ${config.name} deleted.`,
  });

  const runRow = async (config: BmcConfig, action: RowAction) => {
    const effect = DESTRUCTIVE[action];
    if (effect && !(await confirm({ title: `${ACTION_LABELS[action]} ${config.name}?`, message: `This ${effect}.`, confirmLabel: ACTION_LABELS[action] }))) return;
    act.mutate({ config, action });
  };
  const runBatch = async (action: BmcBatchAction) => {
    const ids = [...selected].map(Number);
    const effect = DESTRUCTIVE[action];
    if (effect && !(await confirm({ title: `${ACTION_LABELS[action]} ${ids.length} machine(s)?`, message: `This ${effect} on every selected machine.`, confirmLabel: ACTION_LABELS[action] }))) return;
    setBatchStart(Date.now());
    batch.mutate({ action, ids });
  };

  const columns: Column<BmcConfig>[] = [
    { key: 'name', header: 'Name', sortKey: 'name', render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'address', header: 'Address', sortKey: 'address', render: (c) => <span className="mono">{`${c.address}:${c.port}`}</span> },
    { key: 'protocol', header: 'Protocol', sortKey: 'protocol', render: (c) => c.protocol },
    {
      key: 'host',
      header: 'Host',
      sortKey: 'host_id',
      render: (c) =>
        c.host_id !== null ? (
          <Anchor component={Link} to={`/hosts/${c.host_id}`} size="sm">
            {nameOf(c.host_id)}
          </Anchor>
        ) : (
          <Dim />
        ),
    },
    { key: 'power_state', header: 'Power', sortKey: 'power_state', render: (c) => <StatusBadge value={c.power_state ?? 'unknown'} label={c.power_state ?? 'not read'} /> },
    { key: 'vendor', header: 'Vendor / model', render: (c) => (c.vendor || c.model ? `${c.vendor ?? ''} ${c.model ?? ''}`.trim() : <Dim />) },
    {
      key: 'last_checked_at',
      header: 'Last contact',
      sortKey: 'last_checked_at',
      render: (c) => (
        <div>
          {c.last_checked_at ? <span title={formatDateTime(c.last_checked_at)}>{formatRelative(c.last_checked_at)}</span> : <Dim>never</Dim>}
          {c.last_error && (
            <Text size="xs" c="red" lineClamp={2} maw={260} title={c.last_error}>
              {c.last_error}
            </Text>
          )}
        </div>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="BMC"
        description="Baseboard management controllers (IPMI or Redfish): power and boot device of your machines."
        actions={
          canEdit && (
            <>
              <Button variant="default" onClick={() => setProbing(true)}>
                Probe
              </Button>
              <Button variant="default" onClick={() => setImporting(true)}>
                Import CSV
              </Button>
              <Button onClick={() => setEditing({ config: null })}>New BMC</Button>
            </>
          )
        }
      />
      <TableToolbar
        table={table}
        search={{ label: 'Search BMCs', placeholder: 'Search name, address, vendor…', width: 240 }}
        filters={[
          { kind: 'select', name: 'protocol', label: 'Protocol', options: filterOptions(PROTOCOL_LABELS), width: 150 },
          { kind: 'select', name: 'power_state', label: 'Power', options: filterOptions(POWER_STATE_LABELS), width: 140 },
        ]}
      >
        {canEdit && (
          <Menu position="bottom-start">
            <Menu.Target>
              <Button variant="default" disabled={selected.size === 0 || batch.isPending}>
                Selected ({selected.size}) ▾
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {BMC_BATCH_ACTIONS.map((action) => (
                <Menu.Item key={action} color={DESTRUCTIVE[action] ? 'red' : undefined} onClick={() => void runBatch(action)}>
                  {ACTION_LABELS[action]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
        {batch.isPending && batch.variables && <BatchProgress action={batch.variables.action} since={batchStart} />}
      </TableToolbar>
      <ServerTable
        label="BMC configs"
        columns={columns}
        query={query}
        table={table}
        rowKey={(c) => c.id}
        highlight={highlight}
        rowName={(c) => c.name}
        emptyText="No BMCs yet. Add one, probe an address first, or import a CSV file."
        {...(canEdit ? { selection: { selected, onChange: setSelected } } : {})}
        rowActions={
          canEdit
            ? (config) => (
                <Menu position="bottom-end">
                  <Menu.Target>
                    <Button size="compact-xs" variant="default" aria-label={`Actions for ${config.name}`} loading={act.isPending && act.variables?.config.id === config.id}>
                      Actions ▾
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {ROW_ACTIONS.map((action) => (
                      <Menu.Item key={action} color={DESTRUCTIVE[action] ? 'red' : undefined} onClick={() => void runRow(config, action)}>
                        {ACTION_LABELS[action]}
                      </Menu.Item>
                    ))}
                    <Menu.Item onClick={() => setBootDevice(config)}>Set boot device…</Menu.Item>
                    <Menu.Divider />
                    <Menu.Item onClick={() => setEditing({ config })}>Edit…</Menu.Item>
                    <Menu.Item
                      color="red"
                      onClick={async () => {
                        if (await confirm({ title: `Delete BMC ${config.name}?`, message: 'The config and its stored password are deleted; the machine is not touched.', confirmLabel: 'Delete BMC' })) {
                          remove.mutate(config);
                        }
                      }}
                    >
                      Delete…
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )
            : undefined
        }
      />
      <BmcConfigDialog opened={editing !== null} config={editing?.config ?? null} onClose={() => setEditing(null)} onSaved={(saved) => markNew(saved.id)} />
      <BmcProbeDialog opened={probing} onClose={() => setProbing(false)} />
      <BmcImportDialog opened={importing} onClose={() => setImporting(false)} />
      <BootDeviceDialog config={bootDevice} onClose={() => setBootDevice(null)} />
    </Stack>
  );
}
