import { Badge, Group } from '@mantine/core';
import { formatDateTime } from '../format.js';
import { Dim } from './Dim.js';
import type { Column } from './ServerTable.js';

/** What every saved text version shows (profile scripts, answer templates). */
interface SavedVersion {
  version: number;
  author: string;
  comment: string;
  created_at: string;
}

/**
 * The columns of a versions table: the number (marked "current"), author,
 * comment and when it was saved; `middle` columns of the resource go after the
 * number. `sortable` gives the columns the API's sort fields.
 */
export function versionColumns<T extends SavedVersion>(current: number, options: { sortable?: boolean; middle?: Column<T>[] } = {}): Column<T>[] {
  const sort = (key: string) => (options.sortable ? { sortKey: key } : {});
  return [
    {
      key: 'version',
      header: 'Version',
      ...sort('version'),
      render: (v) => (
        <Group gap={4} wrap="nowrap">
          {v.version}
          {v.version === current && (
            <Badge size="xs" variant="light">
              current
            </Badge>
          )}
        </Group>
      ),
    },
    ...(options.middle ?? []),
    { key: 'author', header: 'Author', ...sort('author'), render: (v) => v.author },
    { key: 'comment', header: 'Comment', render: (v) => v.comment || <Dim /> },
    { key: 'created_at', header: 'Saved', ...sort('created_at'), render: (v) => formatDateTime(v.created_at) },
  ];
}
