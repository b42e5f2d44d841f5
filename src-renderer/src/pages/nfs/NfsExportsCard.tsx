import type { NfsExport, NfsServedExport, NfsSettingsView } from '@contracts/nfs';
import type { OsImage } from '@contracts/os-images';
import { Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useCan } from '../../app-state.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Dim } from '../../components/Dim.js';
import { EmptyState } from '../../components/QueryState.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NfsExportDialog } from './NfsExportDialog.js';
import { explicitPorts, exportsWith, mountCommand, sourceLabel } from './nfs-model.js';

export interface NfsExportsCardProps {
  settings: NfsSettingsView;
  /** The automatic /iso/<slug> exports of the status (empty while the status is unknown). */
  automatic: readonly NfsServedExport[];
  images: readonly OsImage[];
  /** The host clients mount from; null when no LAN address is known. */
  host: string | null;
  /** How clients find the ports now (the status' portmapper mode); null while unknown. */
  portmapperMode: 'own' | 'rpcbind' | 'none' | null;
}

function ProblemBadge({ problem, enabled }: { problem: string | null; enabled: boolean }) {
  if (!enabled) return <Badge color="gray" variant="light">disabled</Badge>;
  if (problem)
    return (
      <Stack gap={2}>
        <Badge color="red" variant="light">
          problem
        </Badge>
        <Text size="xs" c="red" className="pre-wrap">
          {problem}
        </Text>
      </Stack>
    );
  return (
    <Badge color="green" variant="light">
      served
    </Badge>
  );
}

function Subnets({ clients }: { clients: readonly string[] }) {
  if (clients.length === 0) return <Dim>served interfaces</Dim>;
  return (
    <Stack gap={0}>
      {clients.map((subnet) => (
        <span key={subnet} className="mono nowrap">
          {subnet}
        </span>
      ))}
    </Stack>
  );
}

function MountSnippet({ host, path, ports }: { host: string | null; path: string; ports: { nfs: number; mount: number } | null }) {
  return (
    <Code block className="pre-wrap" aria-label={`How to mount ${path}`}>
      {mountCommand(host, path, ports)}
    </Code>
  );
}

/** The stored exports (add, edit, delete: admin) and, read-only, the mounted images' automatic ones. */
export function NfsExportsCard({ settings, automatic, images, host, portmapperMode }: NfsExportsCardProps) {
  const ports = explicitPorts(settings, portmapperMode);
  const canEdit = useCan('admin');
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<{ index: number | null } | null>(null);
  const imageNames = useMemo(() => new Map(images.map((image) => [image.id, image.name])), [images]);
  const remove = useApiAction((api, entry: NfsExport) => api.nfs.settings.update({ exports: exportsWith(settings.exports, settings.exports.indexOf(entry), null) }), {
    invalidate: [keys.nfs],
    success: (_, entry) => `Export ${entry.path} deleted.`,
    errorTitle: 'The export was not deleted',
  });
  const rows = settings.exports.length + automatic.length;

  return (
    <Card withBorder component="section" aria-labelledby="nfs-exports-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="nfs-exports-title">
          Exports
        </Title>
        {canEdit && <Button onClick={() => setDialog({ index: null })}>New export</Button>}
      </Group>
      {rows === 0 ? (
        <EmptyState>No exports yet. An export hands a folder or an OS image to the machines of the allowed subnets, read-only, without a login.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={960}>
          <Table striped verticalSpacing="sm">
            <caption className="visually-hidden">NFS exports</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Path</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Allowed clients</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>How to mount</Table.Th>
                {canEdit && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {settings.exports.map((entry, index) => (
                <Table.Tr key={entry.id}>
                  <Table.Th scope="row" fw="normal">
                    <Text size="sm" className="mono" fw={600}>
                      {entry.path}
                    </Text>
                    {entry.comment && (
                      <Text size="xs" c="dimmed">
                        {entry.comment}
                      </Text>
                    )}
                  </Table.Th>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {sourceLabel(entry, imageNames)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Subnets clients={entry.clients} />
                  </Table.Td>
                  <Table.Td>
                    <ProblemBadge problem={entry.problem} enabled={entry.enabled} />
                  </Table.Td>
                  <Table.Td maw={380}>
                    <MountSnippet host={host} path={entry.path} ports={ports} />
                  </Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button size="compact-xs" variant="default" aria-label={`Edit export ${entry.path}`} onClick={() => setDialog({ index })}>
                          Edit
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="light"
                          color="red"
                          aria-label={`Delete export ${entry.path}`}
                          disabled={remove.isPending}
                          onClick={async () => {
                            const ok = await confirm({
                              title: 'Delete NFS export?',
                              message: `${entry.path} will no longer be served; clients that mounted it get stale file handles.`,
                              confirmLabel: 'Delete export',
                            });
                            if (ok) remove.mutate(entry);
                          }}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
              {automatic.map((entry) => (
                <Table.Tr key={`auto-${entry.id}`}>
                  <Table.Th scope="row" fw="normal">
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" className="mono" fw={600}>
                        {entry.path}
                      </Text>
                      <Badge size="sm" variant="outline" color="blue" title="A mounted OS image, exported because “Export mounted OS images” is on">
                        automatic
                      </Badge>
                    </Group>
                  </Table.Th>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {entry.source}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Subnets clients={entry.clients} />
                  </Table.Td>
                  <Table.Td>
                    <ProblemBadge problem={entry.problem} enabled />
                  </Table.Td>
                  <Table.Td maw={380}>
                    <MountSnippet host={host} path={entry.path} ports={ports} />
                  </Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Dim>read-only</Dim>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canEdit && <NfsExportDialog opened={dialog !== null} onClose={() => setDialog(null)} settings={settings} index={dialog?.index ?? null} images={images} />}
    </Card>
  );
}
