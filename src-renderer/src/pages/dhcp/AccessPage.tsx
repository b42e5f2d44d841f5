import { Alert, Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { AccessEntryView as AccessEntry, AccessListName, AccessMode, UnauthorizedDeviceView as UnauthorizedDevice } from '@contracts/dhcp';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { applyServerErrors } from '../../components/form-errors.js';
import { UrlTabs } from '../../components/kit/index.js';
import { notifyError, notifySuccess } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { ServerTable, TableSearch, type Column, type RowKey } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { isMac } from '../../validators.js';

type ListName = AccessListName;

function AccessModeCard() {
  const query = useApiQuery(keys.dhcpSettings, (api) => api.dhcp.settings.get());
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const save = useApiAction((api, mode: AccessMode) => api.dhcp.settings.update({ access_mode: mode }), {
    invalidate: [keys.dhcp],
    success: (saved) => `Access mode: ${saved.access_mode}.`,
  });
  return (
    <Card withBorder component="section" aria-labelledby="access-mode-title">
      <Title order={2} size="h4" id="access-mode-title">
        Access mode
      </Title>
      <QueryState query={query} what="the access mode">
        {(settings) => (
          <Group justify="space-between" align="center" mt="xs">
            <Text size="sm" c="dimmed" maw={640}>
              {settings.access_mode === 'open'
                ? 'Open: every machine is answered except blacklisted ones.'
                : 'Whitelist: only whitelisted machines are answered; others are recorded as unauthorized devices.'}
            </Text>
            <SegmentedControl
              aria-label="Access mode"
              disabled={!canEdit || save.isPending}
              value={settings.access_mode}
              data={[
                { value: 'open', label: 'Open' },
                { value: 'whitelist', label: 'Whitelist only' },
              ]}
              onChange={async (value) => {
                const mode = value as AccessMode;
                if (mode === 'whitelist') {
                  const ok = await confirm({
                    title: 'Answer only whitelisted machines?',
                    message: 'Machines not on the whitelist get no DHCP answer and no boot files from now on.',
                    confirmLabel: 'Switch to whitelist',
                  });
                  if (!ok) return;
                }
                save.mutate(mode);
              }}
            />
          </Group>
        )}
      </QueryState>
    </Card>
  );
}

function AddEntryForm({ list }: { list: ListName }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { mac: '', comment: '' },
    validate: { mac: (value) => (isMac(value) ? null : 'A MAC address, e.g. 52:54:00:12:34:56') },
  });
  const add = useApiAction((api, body: { mac: string; comment: string }) => api.dhcp.access.add(list, body), {
    invalidate: [keys.accessList(list), keys.accessList(list === 'whitelist' ? 'blacklist' : 'whitelist')],
    notifyErrors: false,
    success: (entry) => `${entry.mac} added to the ${list}.`,
  });
  return (
    <form
      aria-label={`Add to the ${list}`}
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        add.mutate(
          { mac: values.mac.trim(), comment: values.comment.trim() },
          { onSuccess: () => form.reset(), onError: (error) => setFormError(applyServerErrors(form, error, { fields: ['mac', 'comment'] })) },
        );
      })}
    >
      <Group align="flex-start" gap="xs">
        <TextInput aria-label={`MAC address to add to the ${list}`} placeholder="MAC address" w={200} {...form.getInputProps('mac')} />
        <TextInput aria-label="Comment" placeholder="Comment (optional)" w={260} {...form.getInputProps('comment')} />
        <Button type="submit" loading={add.isPending}>
          Add to {list}
        </Button>
      </Group>
      {formError && (
        <Alert color="red" role="alert" mt="xs">
          {formError}
        </Alert>
      )}
    </form>
  );
}

function EntryList({ list }: { list: ListName }) {
  const table = useTableParams({ defaultSort: 'mac', prefix: `${list}_` });
  const query = useApiPage(keys.accessList(list), table.apiParams, (api, params) => api.dhcp.access.list(list, params));
  const canEdit = useCan('operator');
  const remove = useApiAction((api, entry: AccessEntry) => api.dhcp.access.remove(list, entry.id), {
    invalidate: [keys.accessList(list)],
    success: (entry) => `${entry.mac} removed from the ${list}.`,
  });
  const columns: Column<AccessEntry>[] = [
    { key: 'mac', header: 'MAC', sortKey: 'mac', render: (e) => <span className="mono">{e.mac}</span> },
    { key: 'comment', header: 'Comment', sortKey: 'comment', render: (e) => e.comment || <Dim /> },
    { key: 'created_at', header: 'Added', sortKey: 'created_at', render: (e) => formatDateTime(e.created_at) },
  ];
  return (
    <Stack gap="sm">
      {canEdit && <AddEntryForm list={list} />}
      <TableSearch table={table} label={`Search the ${list}`} placeholder="Search MAC or comment" />
      <ServerTable
        label={list === 'whitelist' ? 'Whitelist' : 'Blacklist'}
        columns={columns}
        query={query}
        table={table}
        rowKey={(e) => e.id}
        emptyText={list === 'whitelist' ? 'The whitelist is empty.' : 'The blacklist is empty: no machine is refused.'}
        rowActions={
          canEdit
            ? (entry) => (
                <DeleteButton
                  label="Remove"
                  what={`${entry.mac} from the ${list}`}
                  message={list === 'whitelist' ? `${entry.mac} is no longer answered in whitelist mode.` : `${entry.mac} is answered again.`}
                  onConfirm={() => remove.mutate(entry)}
                />
              )
            : undefined
        }
      />
    </Stack>
  );
}

function UnauthorizedList() {
  const table = useTableParams({ defaultSort: '-last_seen', prefix: 'unauthorized_' });
  const query = useApiPage(keys.accessList('unauthorized'), table.apiParams, (api, params) => api.dhcp.access.unauthorized.list(params));
  const canEdit = useCan('operator');
  const confirm = useConfirm();
  const [selected, setSelected] = useState<Set<RowKey>>(new Set());
  const move = useApiAction(
    (api, input: { ids: number[]; to: ListName }) => api.dhcp.access.unauthorized.moveTo(input.to, { ids: input.ids }),
    {
      invalidate: [keys.access],
      onSuccess: (results, input) => {
        const failed = results.filter((result) => !result.ok);
        if (failed.length === 0) notifySuccess(`${results.length} device(s) moved to the ${input.to}.`);
        else notifyError(new Error(failed.map((result) => `#${result.id}: ${result.error ?? 'failed'}`).join('; ')), `${failed.length} device(s) not moved`);
        setSelected(new Set());
      },
    },
  );
  const remove = useApiAction((api, device: UnauthorizedDevice) => api.dhcp.access.unauthorized.remove(device.id), {
    invalidate: [keys.accessList('unauthorized')],
    success: (device) => `Record of ${device.mac} removed.`,
  });
  const moveSelected = async (to: ListName) => {
    const ids = [...selected].map(Number);
    if (to === 'blacklist' && !(await confirm({ title: `Blacklist ${ids.length} device(s)?`, message: 'They will never be answered.', confirmLabel: 'Blacklist' }))) return;
    move.mutate({ ids, to });
  };
  const columns: Column<UnauthorizedDevice>[] = [
    { key: 'mac', header: 'MAC', sortKey: 'mac', render: (d) => <span className="mono">{d.mac}</span> },
    { key: 'hostname', header: 'Hostname', sortKey: 'hostname', render: (d) => d.hostname ?? <Dim /> },
    { key: 'vendor_class', header: 'Vendor class', sortKey: 'vendor_class', render: (d) => d.vendor_class ?? <Dim /> },
    { key: 'arch', header: 'Arch', sortKey: 'arch', numeric: true, render: (d) => d.arch ?? <Dim /> },
    { key: 'count', header: 'Requests', sortKey: 'count', numeric: true, render: (d) => d.count },
    { key: 'last_seen', header: 'Last seen', sortKey: 'last_seen', render: (d) => <span title={formatDateTime(d.last_seen)}>{formatRelative(d.last_seen)}</span> },
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <TableSearch table={table} label="Search unauthorized devices" placeholder="Search MAC, vendor, hostname" />
        {canEdit && (
          <>
            <Button variant="default" disabled={selected.size === 0 || move.isPending} onClick={() => void moveSelected('whitelist')}>
              Whitelist selected ({selected.size})
            </Button>
            <Button variant="light" color="red" disabled={selected.size === 0 || move.isPending} onClick={() => void moveSelected('blacklist')}>
              Blacklist selected
            </Button>
          </>
        )}
      </Group>
      <ServerTable
        label="Unauthorized devices"
        columns={columns}
        query={query}
        table={table}
        rowKey={(d) => d.id}
        rowName={(d) => d.mac}
        emptyText="No device was refused. In whitelist mode, machines that are not listed show up here."
        {...(canEdit ? { selection: { selected, onChange: setSelected } } : {})}
        rowActions={
          canEdit
            ? (device) => (
                <>
                  <RowButton label={`Whitelist ${device.mac}`} onClick={() => move.mutate({ ids: [device.id], to: 'whitelist' })}>
                    Whitelist
                  </RowButton>
                  <DeleteButton label="Blacklist" what={device.mac} message={`${device.mac} will never be answered.`} onConfirm={() => move.mutate({ ids: [device.id], to: 'blacklist' })} />
                  <DeleteButton label="Forget" what={`the record of ${device.mac}`} message="The record is removed; the device shows up again when it asks." onConfirm={() => remove.mutate(device)} />
                </>
              )
            : undefined
        }
      />
    </Stack>
  );
}

/** `/access`: access mode, whitelist, blacklist and the devices refused in whitelist mode. */
export function AccessPage() {
  return (
    <Stack gap="md">
      <PageHeader title="Access control" description="Which machines the DHCP server and the boot chain answer." />
      <AccessModeCard />
      <UrlTabs
        tabs={[
          { value: 'whitelist', label: 'Whitelist', panel: <EntryList list="whitelist" /> },
          { value: 'blacklist', label: 'Blacklist', panel: <EntryList list="blacklist" /> },
          { value: 'unauthorized', label: 'Unauthorized devices', panel: <UnauthorizedList /> },
        ]}
      />
    </Stack>
  );
}
