import { Button, Stack, Text } from '@mantine/core';
import type { Overlay } from '@contracts/netboot';
import { useState } from 'react';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { DeleteButton, RowButton } from '../../components/RowActions.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatDateTime, formatRelative } from '../../format.js';
import { useApiAction, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { OverlayDialog } from './OverlayDialog.js';
import { useCatalogOptions } from './use-netboot-options.js';

/** What an overlay changes, in words. */
function changes(overlay: Overlay): string[] {
  const list: string[] = [];
  if (overlay.mirror !== undefined) list.push(overlay.mirror === null ? 'no mirror (local only)' : `mirror ${overlay.mirror}`);
  if (overlay.cmdline !== undefined) list.push('command line');
  if (overlay.extra_initrds && overlay.extra_initrds.length > 0) list.push(`extra initrds: ${overlay.extra_initrds.join(', ')}`);
  if (overlay.versions && overlay.versions.length > 0) list.push(`versions ${overlay.versions.map((version) => version.version).join(', ')}`);
  if (overlay.hidden_versions && overlay.hidden_versions.length > 0) list.push(`hides ${overlay.hidden_versions.join(', ')}`);
  if (overlay.answer !== undefined) list.push(overlay.answer === null ? 'no answer file' : `answer ${overlay.answer.kind}`);
  return list;
}

/** `/netboot/overlays`: per-distro changes to the shipped catalog that survive its updates. */
export function OverlaysPage() {
  const table = useTableParams();
  const query = useApiPage(keys.netbootOverlays, table.apiParams, (api, params) => api.netboot.overlays.list(params));
  const catalog = useCatalogOptions();
  const canEdit = useCan('operator');
  const [editing, setEditing] = useState<Overlay | 'new' | null>(null);
  const remove = useApiAction((api, distro: string) => api.netboot.overlays.remove(distro), {
    invalidate: [keys.netbootOverlays, keys.netbootCatalog, keys.netbootFiles],
    errorTitle: 'The overlay was not deleted',
    success: (overlay) => `Overlay of ${overlay.distro} deleted: the shipped entry is back.`,
  });
  const nameOf = (distro: string) => catalog.byDistro.get(distro)?.name ?? distro;

  const columns: Column<Overlay>[] = [
    {
      key: 'distro',
      header: 'Entry',
      sortKey: 'distro',
      render: (overlay) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {nameOf(overlay.distro)}
          </Text>
          <Text size="xs" c="dimmed" className="mono">
            {overlay.distro}
          </Text>
        </Stack>
      ),
    },
    { key: 'changes', header: 'Changes', render: (overlay) => (changes(overlay).length > 0 ? <Text size="sm">{changes(overlay).join(' · ')}</Text> : <Dim>nothing</Dim>) },
    { key: 'updated_at', header: 'Changed', sortKey: 'updated_at', render: (overlay) => <span title={formatDateTime(overlay.updated_at)}>{`${formatRelative(overlay.updated_at)} by ${overlay.updated_by}`}</span> },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="Catalog overlays"
        description="Local changes to shipped catalog entries (a nearer mirror, extra firmware, another command line or version). They survive catalog updates; deleting one restores the shipped entry."
        actions={canEdit && <Button onClick={() => setEditing('new')}>New overlay</Button>}
      />
      <TableToolbar table={table} search={{ label: 'Search overlays', placeholder: 'Search distro' }} />
      <ServerTable
        label="Catalog overlays"
        columns={columns}
        query={query}
        table={table}
        rowKey={(overlay) => overlay.distro}
        emptyText="No overlay: every entry is as shipped."
        rowActions={
          canEdit
            ? (overlay) => (
                <>
                  <RowButton label={`Edit overlay of ${overlay.distro}`} onClick={() => setEditing(overlay)}>
                    Edit
                  </RowButton>
                  <DeleteButton what={`overlay of ${overlay.distro}`} message={`${nameOf(overlay.distro)} goes back to the shipped entry.`} onConfirm={() => remove.mutate(overlay.distro)} disabled={remove.isPending} />
                </>
              )
            : undefined
        }
      />
      <OverlayDialog opened={editing !== null} overlay={editing === 'new' ? null : editing} entries={catalog.entries} onClose={() => setEditing(null)} />
    </Stack>
  );
}
