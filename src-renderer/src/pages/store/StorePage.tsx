import { Anchor, Badge, Button, FileButton, Group, Stack, Table, Text } from '@mantine/core';
import { MAX_LOCAL_BUNDLE_CHARS, STORE_ITEM_TYPES, type StoreItem } from '@contracts/community-store';
import { useMemo, useState } from 'react';
import { useCan } from '../../app-state.js';
import { TableToolbar } from '../../components/kit/index.js';
import { notifyError } from '../../components/notify.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, LoadError, Loading } from '../../components/QueryState.js';
import { useTableParams } from '../../components/use-table-params.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { FeedStatusStrip } from './FeedStatusStrip.js';
import type { ImportTarget } from './import-flow.js';
import { ImportDialog } from './ImportDialog.js';
import { ITEM_TYPE_LABELS, sourceLabel } from './store-labels.js';
import { StoreItemDrawer } from './StoreItemDrawer.js';

function InstalledBadge({ item }: { item: StoreItem }) {
  if (!item.installed) return null;
  return item.installed.update_available ? (
    <Badge size="sm" color="orange" variant="light" radius="sm" title={`Installed: version ${item.installed.version}`}>
      update available
    </Badge>
  ) : (
    <Badge size="sm" color="teal" variant="light" radius="sm">
      installed
    </Badge>
  );
}

/** Reads a chosen file's text in the browser; the server gets the text, never a path. */
async function readBundle(file: File): Promise<ImportTarget | null> {
  // A character takes at most 4 bytes: a bigger file cannot fit, so it is not even read.
  if (file.size > MAX_LOCAL_BUNDLE_CHARS * 4) {
    notifyError(new Error(`${file.name} is too large for a bundle (${Math.round(file.size / 1024 / 1024)} MB)`), 'The file was not imported');
    return null;
  }
  const content = await file.text();
  if (content.length > MAX_LOCAL_BUNDLE_CHARS) {
    notifyError(new Error(`${file.name} has ${content.length.toLocaleString()} characters; a bundle may have ${MAX_LOCAL_BUNDLE_CHARS.toLocaleString()}`), 'The file was not imported');
    return null;
  }
  return { kind: 'local', content, filename: file.name };
}

/** `/store`: community answer templates, scripts, baselines, profiles and overlays, from the shipped catalog and the feeds. */
export function StorePage() {
  const table = useTableParams({ filters: ['type', 'source'] as const });
  const canImport = useCan('operator');
  const { q, filters } = table;
  const type = STORE_ITEM_TYPES.find((candidate) => candidate === filters.type);
  const params = useMemo(() => ({ ...(q ? { q } : {}), ...(type ? { type } : {}), ...(filters.source ? { source: filters.source } : {}), limit: 500 }), [q, type, filters.source]);
  const query = useApiQuery([...keys.storeCatalog, params], (api) => api.store.catalog(params));
  const feeds = useApiQuery(keys.storeFeeds, (api) => api.store.feeds());
  const [open, setOpen] = useState<StoreItem | null>(null);
  const [importing, setImporting] = useState<ImportTarget | null>(null);

  const importItem = (item: StoreItem) => setImporting({ kind: 'item', type: item.type, id: item.id, source: item.source, name: item.name });
  const sourceOptions = (feeds.data ?? []).map((feed) => ({ value: feed.name, label: sourceLabel(feed.name) }));
  const items = query.data;

  return (
    <Stack gap="md">
      <PageHeader
        title="Store"
        description="Ready-made answer templates, scripts, baselines, profiles and catalog overlays: the shipped catalog works offline; feeds add more."
        actions={
          canImport && (
            <FileButton
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              inputProps={{ 'aria-label': 'Bundle file' }}
              onChange={(file) => {
                if (!file) return;
                void readBundle(file).then(
                  (target) => target && setImporting(target),
                  (error: unknown) => notifyError(error, 'The file could not be read'),
                );
              }}
            >
              {(props) => (
                <Button variant="default" {...props}>
                  Import a file
                </Button>
              )}
            </FileButton>
          )
        }
      />
      <FeedStatusStrip />
      <TableToolbar
        table={table}
        search={{ label: 'Search the store', placeholder: 'Search name, summary, tags' }}
        filters={[
          { kind: 'select', name: 'type', label: 'Type', options: STORE_ITEM_TYPES.map((type) => ({ value: type, label: ITEM_TYPE_LABELS[type] })), width: 190 },
          { kind: 'select', name: 'source', label: 'Source', options: sourceOptions, width: 170 },
        ]}
      />
      {query.isPending ? (
        <Loading label="Loading the store catalog…" />
      ) : query.isError && !items ? (
        <LoadError what="the store catalog" error={query.error} onRetry={() => void query.refetch()} />
      ) : items && items.length === 0 ? (
        <EmptyState>{q || filters.type || filters.source ? 'Nothing matches the search or filters.' : 'The catalog is empty.'}</EmptyState>
      ) : (
        items && (
          <Table aria-busy={query.isFetching || undefined}>
            <caption className="visually-hidden">Store catalog</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Version</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Summary</Table.Th>
                {canImport && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={`${item.source}/${item.type}/${item.id}`}>
                  <Table.Td>
                    <Group gap={4} wrap="wrap">
                      <Anchor component="button" type="button" size="sm" fw={500} ta="left" aria-label={`Details of ${item.name}`} onClick={() => setOpen(item)}>
                        {item.name}
                      </Anchor>
                      <InstalledBadge item={item} />
                    </Group>
                  </Table.Td>
                  <Table.Td>{ITEM_TYPE_LABELS[item.type]}</Table.Td>
                  <Table.Td>{item.version}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="outline" color={item.source === 'builtin' ? 'gray' : 'violet'} radius="sm" style={{ textTransform: 'none' }}>
                      {sourceLabel(item.source)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {item.summary}
                    </Text>
                  </Table.Td>
                  {canImport && (
                    <Table.Td>
                      <Button size="xs" variant="light" aria-label={`Import ${item.name}`} onClick={() => importItem(item)}>
                        {item.installed?.update_available ? 'Import update' : 'Import'}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      )}
      <StoreItemDrawer
        item={open}
        onClose={() => setOpen(null)}
        onImport={(item) => {
          setOpen(null);
          importItem(item);
        }}
      />
      <ImportDialog target={importing} onClose={() => setImporting(null)} />
    </Stack>
  );
}
