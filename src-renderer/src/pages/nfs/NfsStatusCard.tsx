import type { NfsStatus } from '@contracts/nfs';
import { Badge, Card, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Dim } from '../../components/Dim.js';
import { formatBytes, formatRelative } from '../../format.js';
import { useNow } from '../../hooks.js';

const PORTMAPPER_COLORS: Record<NfsStatus['portmapper']['mode'], string> = { own: 'green', rpcbind: 'blue', none: 'gray' };

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} aria-label={label}>
        {value}
      </Text>
    </Stack>
  );
}

/** GET /services/nfs/status: how clients find the ports, where it listens, totals and the clients seen since start. */
export function NfsStatusCard({ status }: { status: NfsStatus }) {
  const now = useNow(10_000);
  return (
    <Card withBorder component="section" aria-labelledby="nfs-status-title">
      <Title order={2} size="h4" id="nfs-status-title" mb="sm">
        Status
      </Title>
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap" aria-label="Portmapper" role="group">
          <Text size="sm" fw={500}>
            Portmapper
          </Text>
          <Badge color={PORTMAPPER_COLORS[status.portmapper.mode]} variant="light">
            {status.portmapper.mode}
          </Badge>
          <Text size="sm">{status.portmapper.detail}</Text>
        </Group>
        <Group gap="xs" wrap="wrap" aria-label="Listening on" role="group">
          <Text size="sm" fw={500}>
            Listening on
          </Text>
          {status.listen.length > 0 ? status.listen.map((address) => <Code key={address}>{address}</Code>) : <Dim>nothing (stopped)</Dim>}
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure label="Requests" value={status.requests.toLocaleString('en')} />
          <Figure label="Read" value={formatBytes(status.bytes_read)} />
          <Figure label="Refused" value={status.refused.toLocaleString('en')} />
          <Figure label="Clients" value={String(status.clients.length)} />
        </SimpleGrid>
        {status.clients.length === 0 ? (
          <Text size="sm" c="dimmed">
            No client since the service started.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs">
              <caption className="visually-hidden">NFS clients since the service started</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Client</Table.Th>
                  <Table.Th>Mounted</Table.Th>
                  <Table.Th>Last seen</Table.Th>
                  <Table.Th ta="right">Requests</Table.Th>
                  <Table.Th ta="right">Read</Table.Th>
                  <Table.Th ta="right">Refused</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {status.clients.map((client) => (
                  <Table.Tr key={client.address}>
                    <Table.Th scope="row" fw="normal" className="mono">
                      {client.address}
                    </Table.Th>
                    <Table.Td>
                      {client.mounts.length > 0 ? (
                        client.mounts.map((path) => (
                          <div key={path} className="mono">
                            {path}
                          </div>
                        ))
                      ) : (
                        <Dim>none</Dim>
                      )}
                    </Table.Td>
                    <Table.Td className="nowrap" title={client.last_seen}>
                      {formatRelative(client.last_seen, now)}
                    </Table.Td>
                    <Table.Td ta="right">{client.requests.toLocaleString('en')}</Table.Td>
                    <Table.Td ta="right" className="nowrap">
                      {formatBytes(client.bytes_read)}
                    </Table.Td>
                    <Table.Td ta="right">{client.refused > 0 ? <Text c="red" size="sm" span>{client.refused}</Text> : 0}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
