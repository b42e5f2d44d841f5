import { Alert, Anchor, Breadcrumbs, Button, FileButton, Group, SegmentedControl, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { FILE_ROOTS, type FileEntry, type FileRoot, type FileRootId } from '@contracts/files';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useAppState, useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, LoadError, Loading, QueryState } from '../../components/QueryState.js';
import { DeleteButton } from '../../components/RowActions.js';
import { startUpload, useUploads } from '../../components/upload-store.js';
import { UploadList } from '../../components/UploadList.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { fileUploadTask, joinPath, parentPath } from './file-upload.js';

const TYPE_LABELS: Record<FileEntry['type'], string> = { file: 'File', directory: 'Folder', symlink: 'Link', other: 'Other' };

function asRoot(value: string | null): FileRootId | null {
  return FILE_ROOTS.find((root) => root === value) ?? null;
}

/** A relative path from the URL: no leading slash, no '.' or '..' segments (the server checks again). */
function cleanPath(value: string | null): string {
  return (value ?? '')
    .split('/')
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .join('/');
}

function RootPicker({ roots, value, onChange }: { roots: FileRoot[]; value: FileRootId; onChange: (root: FileRootId) => void }) {
  const current = roots.find((root) => root.id === value);
  return (
    <Stack gap={4}>
      <SegmentedControl
        aria-label="Root"
        value={value}
        onChange={(next) => {
          const root = asRoot(next);
          if (root) onChange(root);
        }}
        data={roots.map((root) => ({ value: root.id, label: root.label }))}
      />
      {current && (
        <Text size="xs" c="dimmed" aria-label="Root details">
          <span className="mono">{current.path}</span>
          {current.free_bytes !== null ? ` · ${formatBytes(current.free_bytes)} free` : ''}
          {current.total_bytes !== null ? ` of ${formatBytes(current.total_bytes)}` : ''}
        </Text>
      )}
      {current?.problem && (
        <Alert color="orange" p="xs" role="alert">
          {current.problem}
        </Alert>
      )}
    </Stack>
  );
}

function PathCrumbs({ root, path, onOpen }: { root: FileRoot | undefined; path: string; onOpen: (path: string) => void }) {
  const parts = path === '' ? [] : path.split('/');
  return (
    <nav aria-label="Folder path">
      <Breadcrumbs separator="/" style={{ flexWrap: 'wrap' }}>
        {parts.length === 0 ? (
          <Text size="sm" fw={500} aria-current="location">
            {root?.label ?? 'Root'}
          </Text>
        ) : (
          <Anchor component="button" type="button" size="sm" onClick={() => onOpen('')}>
            {root?.label ?? 'Root'}
          </Anchor>
        )}
        {parts.map((part, index) => {
          const target = parts.slice(0, index + 1).join('/');
          return index === parts.length - 1 ? (
            <Text key={target} size="sm" fw={500} className="mono" aria-current="location">
              {part}
            </Text>
          ) : (
            <Anchor key={target} component="button" type="button" size="sm" className="mono" onClick={() => onOpen(target)}>
              {part}
            </Anchor>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}

function Listing({ root, path, onOpen }: { root: FileRootId; path: string; onOpen: (path: string) => void }) {
  const canOperate = useCan('operator');
  const query = useApiQuery([...keys.files, 'list', root, path], (api) => api.files.list({ root, path }));
  const remove = useApiAction((api, entry: FileEntry) => api.files.remove({ root, path: entry.path, recursive: entry.type === 'directory' }), {
    invalidate: [keys.files],
    success: (_, entry) => `${entry.name} deleted.`,
    errorTitle: 'Deleting failed',
  });
  if (query.isPending) return <Loading label="Loading the folder…" />;
  if (query.isError) return <LoadError what="the folder" error={query.error} onRetry={() => void query.refetch()} />;
  const entries = [...query.data.entries].sort((a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name));
  if (entries.length === 0) return <EmptyState>This folder is empty.</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <caption className="visually-hidden">Files</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>Modified</Table.Th>
            <Table.Th>Type</Table.Th>
            {canOperate && (
              <Table.Th className="row-actions">
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.path}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {entry.type === 'directory' ? (
                  <UnstyledButton onClick={() => onOpen(entry.path)} aria-label={`Open folder ${entry.name}`}>
                    <Text size="sm" fw={500} c="var(--mantine-primary-color-filled)">
                      {entry.name}/
                    </Text>
                  </UnstyledButton>
                ) : (
                  <Text size="sm">
                    {entry.name}
                    {entry.type === 'symlink' && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        → {entry.target ?? 'outside the root (not followed)'}
                      </Text>
                    )}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{entry.type === 'directory' ? <Dim /> : formatBytes(entry.size)}</Table.Td>
              <Table.Td>{formatDateTime(entry.modified_at)}</Table.Td>
              <Table.Td>{TYPE_LABELS[entry.type]}</Table.Td>
              {canOperate && (
                <Table.Td className="row-actions">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <DeleteButton
                      what={entry.type === 'directory' ? `folder ${entry.name}` : entry.name}
                      message={entry.type === 'directory' ? `The folder ${entry.path} and everything in it are deleted.` : `${entry.path} is deleted.`}
                      onConfirm={() => remove.mutate(entry)}
                    />
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * `/files`: the files in the boot root, the images folder and the drop
 * folder: browse, upload into the open folder (progress, cancel, overwrite
 * on a 409) and delete. The server confines every path to its root.
 */
export function FilesPage() {
  const { client } = useAppState();
  const queryClient = useQueryClient();
  const desktop = client.kind === 'ipc';
  const canOperate = useCan('operator');
  const [search, setSearch] = useSearchParams();
  const rootsQuery = useApiQuery(keys.fileRoots, (api) => api.files.roots());
  const uploads = useUploads('files');
  const path = cleanPath(search.get('path'));
  const roots = rootsQuery.data ?? [];
  const root = asRoot(search.get('root')) ?? roots.find((candidate) => candidate.problem === null)?.id ?? roots[0]?.id ?? 'boot';
  const currentRoot = roots.find((candidate) => candidate.id === root);
  const go = (nextRoot: FileRootId, nextPath: string) => {
    const next = new URLSearchParams(search);
    next.set('root', nextRoot);
    if (nextPath === '') next.delete('path');
    else next.set('path', nextPath);
    setSearch(next);
  };
  // Cleared after each choice: picking the same file again (to overwrite it) must fire the input's change again.
  const resetChooser = useRef<() => void>(null);
  const upload = (files: File[]) => {
    resetChooser.current?.();
    for (const file of files) {
      startUpload('files', (key, onChange) => fileUploadTask(root, path, file, key, onChange), () => void queryClient.invalidateQueries({ queryKey: keys.files }));
    }
  };
  return (
    <Stack gap="md">
      <PageHeader
        title="Files"
        description="The files TFTP and HTTP serve (the boot root), the OS images folder and the drop folder."
        actions={
          canOperate &&
          !desktop &&
          currentRoot?.problem === null && (
            <FileButton onChange={upload} multiple resetRef={resetChooser}>
              {(props) => <Button {...props}>Upload files</Button>}
            </FileButton>
          )
        }
      />
      <QueryState query={rootsQuery} what="the roots">
        {(loaded) => (
          <Stack gap="sm">
            <RootPicker roots={loaded} value={root} onChange={(next) => go(next, '')} />
            {desktop && canOperate && currentRoot && (
              <Text size="sm" c="dimmed">
                In the desktop app, copy files into <span className="mono">{joinPath(currentRoot.path, path)}</span> on this machine; they show here.
              </Text>
            )}
            <UploadList uploads={uploads} title="Uploads" />
            <Group justify="space-between" wrap="wrap">
              <PathCrumbs root={currentRoot} path={path} onOpen={(next) => go(root, next)} />
              {path !== '' && (
                <Button size="compact-sm" variant="default" onClick={() => go(root, parentPath(path))}>
                  Up
                </Button>
              )}
            </Group>
            {currentRoot?.problem ? null : <Listing root={root} path={path} onOpen={(next) => go(root, next)} />}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
