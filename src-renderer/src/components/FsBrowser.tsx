import type { BrowseResult } from '@contracts/files';
import { Anchor, Breadcrumbs, Button, Group, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useRef, useState } from 'react';
import type { Api } from '../api/clients/index.js';
import { formatBytes, formatDateTime } from '../format.js';
import { useApiQuery } from '../query/api-hooks.js';
import { keys } from '../query/keys.js';
import { EmptyState, LoadError, Loading } from './QueryState.js';

export interface FsBrowserProps {
  /** directory: pick a folder (the one open is the choice); file: pick a file inside one. */
  mode: 'directory' | 'file';
  /** File mode: only files with these extensions (".iso,.img"). */
  extensions?: string;
  /** The chosen path (absolute) or null. */
  value: string | null;
  onChange(path: string | null): void;
  /** Where to start (a folder); default: the browse roots. */
  initialPath?: string | null;
  /** The list's height in px (it scrolls). */
  height?: number;
  /**
   * Directory mode: another endpoint with the same answer than GET /fs/browse
   * (the NFS export picker browses the served roots through
   * /services/nfs/browse-path); `key` names its cache entries.
   */
  source?: { key: string; browse: (api: Api, path: string | null) => Promise<BrowseResult> };
}

/** `/srv/isos/debian` → [['/', '/'], ['srv', '/srv'], …] below the browse root that holds it. */
export function pathCrumbs(path: string, roots: readonly string[]): { label: string; path: string }[] {
  const root = [...roots].sort((a, b) => b.length - a.length).find((candidate) => path === candidate || path.startsWith(candidate.endsWith('/') ? candidate : `${candidate}/`));
  if (!root) return [{ label: path, path }];
  const rest = path.slice(root.length).split('/').filter(Boolean);
  const crumbs = [{ label: root, path: root }];
  let current = root.replace(/\/$/, '');
  for (const part of rest) {
    current = `${current}/${part}`;
    crumbs.push({ label: part, path: current });
  }
  return crumbs;
}

/**
 * A folder and file picker over GET /fs/browse (admin: it shows this
 * machine's folders, confined to the browse roots). Used by the image import
 * and the drop-folder setting, and by the NFS export picker.
 */
export function FsBrowser({ mode, extensions, value, onChange, initialPath = null, height = 280, source }: FsBrowserProps) {
  const [path, setPath] = useState<string | null>(initialPath);
  const show = mode === 'file' ? 'all' : 'directories';
  const query = useApiQuery([...keys.fsBrowse, source?.key ?? 'fs', path, show, extensions ?? ''], (api) =>
    source
      ? source.browse(api, path)
      : api.files.browse({ ...(path !== null ? { path } : {}), show, ...(mode === 'file' && extensions ? { extensions } : {}) }),
  );
  // The browse roots stay the same from folder to folder: keep them for the breadcrumbs while the next folder loads.
  const roots = useRef<string[]>([]);
  if (query.data) roots.current = query.data.roots;
  const open = (next: string | null) => {
    setPath(next);
    if (mode === 'directory') onChange(next);
  };
  return (
    <Stack gap="xs" role="group" aria-label={mode === 'directory' ? 'Folder picker' : 'File picker'}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Crumbs path={path} roots={roots.current} onOpen={open} />
        <Button size="compact-xs" variant="default" disabled={path === null || !query.data} onClick={() => open(query.data?.parent ?? null)}>
          Up
        </Button>
      </Group>
      <ScrollArea h={height} type="auto" className="fs-browser">
        {query.isPending ? (
          <Loading label="Loading the folder…" />
        ) : query.isError ? (
          <LoadError what="the folder" error={query.error} onRetry={() => void query.refetch()} />
        ) : query.data.entries.length === 0 ? (
          <EmptyState>{mode === 'file' ? 'No folder or matching file here.' : 'No folder here.'}</EmptyState>
        ) : (
          <Table verticalSpacing={4} highlightOnHover>
            <caption className="visually-hidden">Content of {path ?? 'the browse roots'}</caption>
            <Table.Tbody>
              {query.data.entries.map((entry) => {
                const isDir = entry.type === 'directory';
                const chosen = value === entry.path;
                // At the top the roots are shown (and named) by their whole path.
                const label = path === null ? entry.path : entry.name;
                return (
                  <Table.Tr key={entry.path} bg={chosen ? 'var(--mantine-primary-color-light)' : undefined}>
                    <Table.Td>
                      <UnstyledButton
                        onClick={() => (isDir ? open(entry.path) : onChange(entry.path))}
                        aria-label={isDir ? `Open folder ${label}` : `Choose file ${label}`}
                        aria-pressed={isDir ? undefined : chosen}
                        style={{ wordBreak: 'break-all' }}
                      >
                        <Text size="sm" span fw={chosen ? 600 : undefined}>
                          {label}
                          {/* A trailing slash marks a folder: no icon font is needed for it. */}
                          {isDir && !label.endsWith('/') ? '/' : ''}
                        </Text>
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td ta="right" w={110}>
                      <Text size="xs" c="dimmed">
                        {isDir ? '' : formatBytes(entry.size)}
                      </Text>
                    </Table.Td>
                    <Table.Td w={160} visibleFrom="sm">
                      <Text size="xs" c="dimmed">
                        {formatDateTime(entry.modified_at)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </ScrollArea>
      <Text size="sm" aria-live="polite">
        {value ? (
          <>
            Chosen: <span className="mono">{value}</span>
          </>
        ) : (
          <Text span c="dimmed" inherit>
            {mode === 'directory' ? 'Open the folder to choose.' : 'Choose a file.'}
          </Text>
        )}
      </Text>
    </Stack>
  );
}

function Crumbs({ path, roots, onOpen }: { path: string | null; roots: readonly string[]; onOpen: (path: string | null) => void }) {
  const crumbs = path === null ? [] : pathCrumbs(path, roots);
  return (
    <nav aria-label="Folder path">
      <Breadcrumbs separator="›" style={{ flexWrap: 'wrap' }}>
        <Anchor component="button" type="button" size="sm" onClick={() => onOpen(null)}>
          Browse roots
        </Anchor>
        {crumbs.map((crumb, index) =>
          index === crumbs.length - 1 ? (
            <Text key={crumb.path} size="sm" className="mono" aria-current="location">
              {crumb.label}
            </Text>
          ) : (
            <Anchor key={crumb.path} component="button" type="button" size="sm" className="mono" onClick={() => onOpen(crumb.path)}>
              {crumb.label}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
