import { Checkbox, Group, Pagination, Select, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ListResult } from '../api/api-client.js';
import { EmptyState, LoadError, Loading } from './QueryState.js';
import { PAGE_SIZES, type TableController } from './use-table-params.js';

export interface Column<T> {
  key: string;
  header: string;
  /** The API's sort field for this column; absent: not sortable. */
  sortKey?: string;
  render: (row: T) => ReactNode;
  /** Right-align numbers. */
  numeric?: boolean;
}

export type RowKey = string | number;

export interface Selection {
  selected: ReadonlySet<RowKey>;
  onChange(next: Set<RowKey>): void;
}

export interface ServerTableProps<T> {
  /** The table's accessible name (a caption, hidden visually). */
  label: string;
  columns: Column<T>[];
  query: UseQueryResult<ListResult<T>, Error>;
  table: TableController<string>;
  rowKey: (row: T) => RowKey;
  /** Shown when the list is empty without a search or filter. */
  emptyText: ReactNode;
  /** Names a row in the selection checkbox label ("Select web01"). */
  rowName?: (row: T) => string;
  selection?: Selection;
  rowActions?: (row: T) => ReactNode;
  /** Whether a search or filter is active (changes the empty message). */
  filtered?: boolean;
  /** A row just created or saved (use-new-row): marked and scrolled into view when it is on this page. */
  highlight?: RowKey | null;
}

/**
 * A table whose paging, sorting and filtering happen on the server: the
 * controller (use-table-params) holds page, size, q and sort in the URL and
 * the query refetches on change. Loading, error and empty states included.
 */
export function ServerTable<T>(props: ServerTableProps<T>) {
  const { query, table, columns, selection } = props;
  const container = useRef<HTMLDivElement>(null);
  const highlighted = props.highlight ?? null;
  const shown = query.data?.data;
  useEffect(() => {
    if (highlighted === null) return;
    // Optional call: jsdom has no scrollIntoView.
    container.current?.querySelector('tr[data-new]')?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [highlighted, shown]);
  if (query.isPending) return <Loading label={`Loading ${props.label.toLowerCase()}…`} />;
  if (query.isError && !query.data) return <LoadError what={props.label.toLowerCase()} error={query.error} onRetry={() => void query.refetch()} />;
  const result = query.data;
  if (!result) return null;
  const rows = result.data;
  const { total } = result.meta;
  const pages = Math.max(1, Math.ceil(total / table.size));
  const filtered = props.filtered ?? (table.q.trim() !== '' || Object.values(table.filters).some((value) => value !== ''));

  if (total === 0 && rows.length === 0) {
    return <EmptyState>{filtered ? 'Nothing matches the search or filters.' : props.emptyText}</EmptyState>;
  }

  const pageKeys = rows.map(props.rowKey);
  const allSelected = selection !== undefined && pageKeys.length > 0 && pageKeys.every((key) => selection.selected.has(key));
  const someSelected = selection !== undefined && pageKeys.some((key) => selection.selected.has(key));
  const first = (result.meta.page - 1) * result.meta.size + 1;

  return (
    <>
      {query.isError && <LoadError what={props.label.toLowerCase()} error={query.error} onRetry={() => void query.refetch()} />}
      <Table.ScrollContainer minWidth={720} ref={container}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-busy={query.isFetching || undefined}>
          <caption className="visually-hidden">{props.label}</caption>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all rows on this page"
                    checked={allSelected}
                    indeterminate={someSelected && !allSelected}
                    onChange={(event) => {
                      const next = new Set(selection.selected);
                      for (const key of pageKeys) {
                        if (event.currentTarget.checked) next.add(key);
                        else next.delete(key);
                      }
                      selection.onChange(next);
                    }}
                  />
                </Table.Th>
              )}
              {columns.map((column) => (
                <SortableHeader key={column.key} column={column} table={table} />
              ))}
              {props.rowActions && (
                <Table.Th className="row-actions">
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const key = props.rowKey(row);
              return (
                <Table.Tr key={key} data-new={key === highlighted || undefined} className={key === highlighted ? 'row-new' : undefined}>
                  {selection && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${props.rowName ? props.rowName(row) : String(key)}`}
                        checked={selection.selected.has(key)}
                        onChange={(event) => {
                          const next = new Set(selection.selected);
                          if (event.currentTarget.checked) next.add(key);
                          else next.delete(key);
                          selection.onChange(next);
                        }}
                      />
                    </Table.Td>
                  )}
                  {columns.map((column) => (
                    <Table.Td key={column.key} ta={column.numeric ? 'right' : undefined}>
                      {column.render(row)}
                    </Table.Td>
                  ))}
                  {props.rowActions && (
                    <Table.Td className="row-actions">
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {props.rowActions(row)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="sm" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite">
          {rows.length === 0 ? `No rows on page ${result.meta.page} of ${total}` : `${first}–${first + rows.length - 1} of ${total}`}
        </Text>
        <Group gap="sm">
          <Select
            aria-label="Rows per page"
            size="xs"
            w={90}
            data={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
            value={String(table.size)}
            onChange={(value) => value && table.setSize(Number(value))}
            allowDeselect={false}
          />
          {pages > 1 && (
            <Pagination
              size="sm"
              total={pages}
              value={Math.min(table.page, pages)}
              onChange={table.setPage}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          )}
        </Group>
      </Group>
    </>
  );
}

function SortableHeader<T>({ column, table }: { column: Column<T>; table: TableController<string> }) {
  if (!column.sortKey) return <Table.Th ta={column.numeric ? 'right' : undefined}>{column.header}</Table.Th>;
  const field = column.sortKey;
  const direction = table.sort === field ? 'ascending' : table.sort === `-${field}` ? 'descending' : undefined;
  return (
    <Table.Th aria-sort={direction ?? 'none'} ta={column.numeric ? 'right' : undefined}>
      <UnstyledButton onClick={() => table.toggleSort(field)} className="sort-button" aria-label={`Sort by ${column.header}`}>
        {column.header}
        <span aria-hidden="true" className="sort-mark">
          {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ' ↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The search box of a server table: sends after a short pause in typing. */
export function TableSearch({ table, label, placeholder, width = 260 }: { table: TableController<string>; label: string; placeholder?: string; width?: number }) {
  const [text, setText] = useState(table.q);
  const send = useDebouncedCallback((value: string) => table.setSearch(value), 300);
  // Follow URL changes made elsewhere (back button, a link).
  useEffect(() => setText(table.q), [table.q]);
  return (
    <TextInput
      type="search"
      aria-label={label}
      placeholder={placeholder ?? label}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        send(event.currentTarget.value);
      }}
      w={width}
    />
  );
}

/** A Select filter bound to one of the table's filters ('' = all). */
export function TableFilter({
  table,
  name,
  label,
  options,
  width = 170,
}: {
  table: TableController<string>;
  name: string;
  label: string;
  options: { value: string; label: string }[];
  width?: number;
}) {
  return (
    <Select
      aria-label={label}
      placeholder={label}
      data={[{ value: '', label: `All (${label.toLowerCase()})` }, ...options]}
      value={table.filters[name] ?? ''}
      onChange={(value) => table.setFilter(name, value ?? '')}
      allowDeselect={false}
      w={width}
    />
  );
}

/** A free-text filter (exact match on the server, e.g. a group name), sent after a pause in typing. */
export function TableTextFilter({ table, name, label, width = 150 }: { table: TableController<string>; name: string; label: string; width?: number }) {
  const current = table.filters[name] ?? '';
  const [text, setText] = useState(current);
  const send = useDebouncedCallback((value: string) => table.setFilter(name, value.trim()), 400);
  useEffect(() => setText(current), [current]);
  return (
    <TextInput
      aria-label={label}
      placeholder={label}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        send(event.currentTarget.value);
      }}
      w={width}
    />
  );
}
