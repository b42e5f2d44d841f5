import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { DateRangeFilter } from '../DateRangeFilter.js';
import { TableFilter, TableSearch, TableTextFilter } from '../ServerTable.js';
import type { TableController } from '../use-table-params.js';

export interface FilterOption {
  value: string;
  label: string;
}

/** One filter of a table toolbar, bound to the table filter `name`. */
export type ToolbarFilter<F extends string> =
  /** Free text, sent after a pause in typing (exact match on the server). */
  | { kind: 'text'; name: F; label: string; width?: number }
  /** A choice among `options`, with "All" first. */
  | { kind: 'select'; name: F; label: string; options: readonly FilterOption[]; width?: number }
  /** The table's `since` and `until` filters. */
  | { kind: 'date-range' };

export interface TableToolbarProps<F extends string> {
  table: TableController<F>;
  search: { label: string; placeholder?: string; width?: number };
  filters?: readonly ToolbarFilter<F>[];
  /** Buttons acting on the table (wake selected, delete selected…), after the filters. */
  children?: ReactNode;
}

/** The row above a ServerTable: the search box, the filters, then the page's table actions. */
export function TableToolbar<F extends string>({ table, search, filters = [], children }: TableToolbarProps<F>) {
  return (
    <Group gap="sm">
      <TableSearch table={table} label={search.label} placeholder={search.placeholder} width={search.width} />
      {filters.map((filter) => {
        switch (filter.kind) {
          case 'text':
            return <TableTextFilter key={filter.name} table={table} name={filter.name} label={filter.label} width={filter.width} />;
          case 'select':
            return <TableFilter key={filter.name} table={table} name={filter.name} label={filter.label} options={[...filter.options]} width={filter.width} />;
          case 'date-range':
            return <DateRangeFilter key="date-range" table={table} />;
        }
      })}
      {children}
    </Group>
  );
}

/**
 * `{ on: 'On', off: 'Off' }` → `[{ value: 'on', label: 'On' }, …]`, in the
 * written order (keys that look like integers would be sorted first by
 * JavaScript, so write those out as a list instead).
 */
export function filterOptions(labels: Readonly<Record<string, string>>): FilterOption[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
