import { Badge, Button, Code, Drawer, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { StoreItem, StoreItemDetail } from '@contracts/community-store';
import type { ReactNode } from 'react';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { QueryState } from '../../components/QueryState.js';
import { formatDateTime } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { ITEM_TYPE_LABELS, sourceLabel } from './store-labels.js';

/** A payload preview is for reading, not for copying whole bundles: long ones are cut. */
const PREVIEW_CHARS = 20_000;

function payloadText(payload: unknown): string {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload, null, 2);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n… (${(text.length - PREVIEW_CHARS).toLocaleString()} more characters)` : text;
}

function Details({ item, onImport }: { item: StoreItemDetail; onImport: (item: StoreItem) => void }) {
  const canImport = useCan('operator');
  const rows: [string, ReactNode][] = [
    ['Type', ITEM_TYPE_LABELS[item.type]],
    ['Version', item.version],
    ['Source', sourceLabel(item.source)],
    ['Author', item.author || <Dim />],
    ['OS family', item.os_family ?? <Dim />],
    ['Tags', item.tags.length > 0 ? item.tags.join(', ') : <Dim />],
    ['SHA-256', <Code key="sha">{item.sha256}</Code>],
    [
      'Installed',
      item.installed ? (
        <Stack gap={2}>
          <Text size="sm">
            Version {item.installed.version}, {formatDateTime(item.installed.imported_at)} by {item.installed.imported_by}
            {item.installed.update_available && (
              <Badge ml="xs" size="sm" color="orange" variant="light" radius="sm">
                update available
              </Badge>
            )}
          </Text>
          {item.installed.local.map((local) => (
            <Text key={`${local.type}/${local.id}`} size="xs" c="dimmed">
              {ITEM_TYPE_LABELS[local.type]} #{local.id} {local.name}
            </Text>
          ))}
        </Stack>
      ) : (
        'No'
      ),
    ],
  ];
  return (
    <Stack gap="md">
      <Text size="sm">{item.summary}</Text>
      {item.description && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {item.description}
        </Text>
      )}
      <Table variant="vertical" layout="fixed">
        <caption className="visually-hidden">Item details</caption>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={120}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <section aria-labelledby="store-requires-title">
        <Title order={3} size="h5" id="store-requires-title" mb={4}>
          Brings along
        </Title>
        {item.requires.length > 0 ? (
          <List size="sm">
            {item.requires.map((required) => (
              <List.Item key={required}>{required}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            Nothing else.
          </Text>
        )}
      </section>
      <section aria-labelledby="store-payload-title">
        <Title order={3} size="h5" id="store-payload-title" mb={4}>
          What the import creates
        </Title>
        <Code block aria-label="Payload" style={{ maxHeight: 400, overflow: 'auto' }}>
          {payloadText(item.payload)}
        </Code>
      </section>
      {canImport && (
        <Group justify="flex-end">
          <Button onClick={() => onImport(item)}>{item.installed?.update_available ? 'Import update' : 'Import'}</Button>
        </Group>
      )}
    </Stack>
  );
}

/** One catalog item in full, beside the catalog. */
export function StoreItemDrawer({ item, onClose, onImport }: { item: StoreItem | null; onClose: () => void; onImport: (item: StoreItem) => void }) {
  const query = useApiQuery(keys.storeItem(item?.type ?? '', item?.id ?? '', item?.source ?? ''), item ? (api) => api.store.item(item.type, item.id, item.source) : null);
  return (
    <Drawer opened={item !== null} onClose={onClose} position="right" size="lg" title={item ? `${item.name} ${item.version}` : ''}>
      {item && (
        <QueryState query={query} what="the item">
          {(detail) => <Details item={detail} onImport={onImport} />}
        </QueryState>
      )}
    </Drawer>
  );
}
