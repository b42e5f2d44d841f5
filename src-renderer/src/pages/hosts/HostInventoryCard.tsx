import { Anchor, Card, Code, Stack, Table, Text, Title } from '@mantine/core';
import type { HostInventory } from '@contracts/baselines';
import { useState } from 'react';
import { Dim } from '../../components/Dim.js';
import { EmptyState, QueryState } from '../../components/QueryState.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const dash = (value: string | null) => value ?? '—';

/**
 * The host's last hardware inventory (GET /hosts/{id}/inventory): what its
 * baseline's "Hardware inventory report" script posted with the runtime
 * token. A host that never reported has none (the API answers null).
 */
export function HostInventoryCard({ hostId }: { hostId: number }) {
  const query = useApiQuery([...keys.baselineRuns, 'inventory', hostId], (api) => api.baselineRuns.inventory(hostId));
  const [raw, setRaw] = useState(false);
  return (
    <Card withBorder component="section" aria-labelledby="host-inventory-title">
      <Title order={2} size="h4" id="host-inventory-title" mb="sm">
        Hardware inventory
      </Title>
      <QueryState query={query} what="the hardware inventory">
        {(inventory: HostInventory | null) =>
          inventory === null ? (
            <EmptyState>No inventory reported. A baseline with the “Hardware inventory report” script (from the Store) posts one after the install.</EmptyState>
          ) : (
            <Stack gap="xs">
              <Dim>
                Reported {formatDateTime(inventory.received_at)} · {formatBytes(inventory.bytes)}
              </Dim>
              <Table withRowBorders={false} aria-label="Hardware summary">
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={140}>System</Table.Th>
                    <Table.Td>{[inventory.summary.vendor, inventory.summary.product].filter(Boolean).join(' ') || '—'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Serial / UUID</Table.Th>
                    <Table.Td className="mono">
                      {dash(inventory.summary.serial)} / {dash(inventory.summary.uuid)}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>CPU</Table.Th>
                    <Table.Td>{inventory.summary.cpu_count > 0 ? `${inventory.summary.cpu_count} × ${dash(inventory.summary.cpu)}` : '—'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Memory</Table.Th>
                    <Table.Td>{inventory.summary.memory_bytes === null ? '—' : formatBytes(inventory.summary.memory_bytes)}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Disks</Table.Th>
                    <Table.Td>
                      {inventory.summary.disks.length === 0
                        ? '—'
                        : inventory.summary.disks.map((disk) => `${disk.name} ${disk.size_bytes === null ? '' : formatBytes(disk.size_bytes)}${disk.model ? ` (${disk.model})` : ''}`).join(', ')}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>NICs</Table.Th>
                    <Table.Td className="mono">{inventory.summary.nics.length === 0 ? '—' : inventory.summary.nics.map((nic) => `${nic.name}${nic.mac ? ` ${nic.mac}` : ''}`).join(', ')}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
              <Anchor component="button" size="sm" onClick={() => setRaw((open) => !open)}>
                {raw ? 'Hide the document' : 'Show the document as posted'}
              </Anchor>
              {raw && (
                <Code block aria-label="Inventory document" style={{ maxHeight: 400, overflow: 'auto' }}>
                  {JSON.stringify(inventory.data, null, 2)}
                </Code>
              )}
              <Text size="xs" c="dimmed">
                Each report replaces the previous one.
              </Text>
            </Stack>
          )
        }
      </QueryState>
    </Card>
  );
}
