import { Alert, Anchor, Button, FileButton, Stack, Text } from '@mantine/core';
import { IMAGE_STATES, OS_FAMILIES, type OsImage } from '@contracts/os-images';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useAppState, useCan } from '../../app-state.js';
import { TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { ServerTable, type Column } from '../../components/ServerTable.js';
import { startUpload, useUploads } from '../../components/upload-store.js';
import { UploadList } from '../../components/UploadList.js';
import { useTableParams } from '../../components/use-table-params.js';
import { formatBytes } from '../../format.js';
import { useApi, useApiPage } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { DetectedOs, ImageStateBadge, ServedBadges } from './ImageBadges.js';
import { FAMILY_LABELS, SOURCE_LABELS } from './image-labels.js';
import { imageUploadTask } from './image-upload.js';
import { ImageSettingsDialog } from './ImageSettingsDialog.js';
import { ImportDialog } from './ImportDialog.js';
import { PartialUploads } from './PartialUploads.js';

const COLUMNS: Column<OsImage>[] = [
  {
    key: 'name',
    header: 'Name',
    sortKey: 'name',
    render: (image) => (
      <Stack gap={0} miw={150}>
        <Anchor component={Link} to={`/images/${image.id}`} size="sm" fw={500}>
          {image.name}
        </Anchor>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {image.file_name}
        </Text>
      </Stack>
    ),
  },
  { key: 'os', header: 'Detected OS', render: (image) => <DetectedOs image={image} /> },
  { key: 'size', header: 'Size', sortKey: 'size', numeric: true, render: (image) => <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(image.size)}</span> },
  { key: 'source', header: 'Source', sortKey: 'source', render: (image) => SOURCE_LABELS[image.source] },
  { key: 'state', header: 'State', sortKey: 'state', render: (image) => <ImageStateBadge image={image} /> },
  { key: 'served', header: 'Served', render: (image) => <ServedBadges image={image} /> },
];

/**
 * `/images`: the OS images (ISOs) Bootwright knows, with upload (browser:
 * a resumable raw-body upload with progress), import from this machine,
 * the partial uploads and the drop-folder settings.
 */
export function ImagesPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { client } = useAppState();
  const desktop = client.kind === 'ipc';
  const canOperate = useCan('operator');
  const isAdmin = useCan('admin');
  const table = useTableParams({ filters: ['state', 'family'] as const, defaultSort: 'name' });
  const query = useApiPage(keys.osImages, table.apiParams, (client, params) => client.osImages.list(params));
  const uploads = useUploads('images');
  const [importing, setImporting] = useState(false);
  const [settings, setSettings] = useState(false);
  // Cleared after each choice: picking the same file again (after a delete, or to retry) must fire the input's change again.
  const resetChooser = useRef<() => void>(null);
  const upload = (files: File[]) => {
    resetChooser.current?.();
    for (const file of files) {
      startUpload(
        'images',
        (key, onChange) => imageUploadTask(api, file, key, onChange),
        () => void queryClient.invalidateQueries({ queryKey: keys.osImages }),
      );
    }
  };
  return (
    <Stack gap="md">
      <PageHeader
        title="OS images"
        description="ISO files to boot, install from or serve: uploaded, imported from this machine or dropped into the watched folder; read, detected, mounted under /boot/iso/ or extracted."
        actions={
          <>
            {canOperate && !desktop && (
              <FileButton onChange={upload} accept=".iso,.img" multiple resetRef={resetChooser}>
                {(props) => <Button {...props}>Upload ISO</Button>}
              </FileButton>
            )}
            {canOperate && (
              <Button variant={desktop ? 'filled' : 'default'} onClick={() => setImporting(true)}>
                {desktop ? 'Import from this machine' : 'Import from the server'}
              </Button>
            )}
            {isAdmin && (
              <Button variant="default" onClick={() => setSettings(true)}>
                Drop folder…
              </Button>
            )}
          </>
        }
      />
      {desktop && canOperate && (
        <Alert color="blue" variant="light">
          In the desktop app an ISO on this machine is imported where it lies (no copy); uploading is for browsers on other machines.
        </Alert>
      )}
      <UploadList uploads={uploads} title="Uploads" overwriteLabel="Replace the image file" />
      {canOperate && <PartialUploads canResume={!desktop} />}
      <TableToolbar
        table={table}
        search={{ label: 'Search images', placeholder: 'Search name, file, distro' }}
        filters={[
          { kind: 'select', name: 'state', label: 'State', options: IMAGE_STATES.map((state) => ({ value: state, label: state })), width: 150 },
          { kind: 'select', name: 'family', label: 'OS family', options: OS_FAMILIES.map((family) => ({ value: family, label: FAMILY_LABELS[family] })), width: 170 },
        ]}
      />
      <ServerTable
        label="OS images"
        columns={COLUMNS}
        query={query}
        table={table}
        rowKey={(image) => image.id}
        emptyText={desktop ? 'No image yet. Import an ISO from this machine, or set a drop folder.' : 'No image yet. Upload an ISO, import one from the server, or set a drop folder.'}
      />
      {canOperate && <ImportDialog opened={importing} onClose={() => setImporting(false)} />}
      {isAdmin && <ImageSettingsDialog opened={settings} onClose={() => setSettings(false)} />}
    </Stack>
  );
}
