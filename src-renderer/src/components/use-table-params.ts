import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { QueryValue } from '../api/query-string.js';

export const PAGE_SIZES = [25, 50, 100, 200] as const;

export interface TableParamsOptions<F extends string> {
  /** The list's default order (what the server uses without `sort`); shown as the sorted column. */
  defaultSort?: string;
  defaultSize?: number;
  /** Filter names the page offers; they go to the API as query parameters of the same name. */
  filters?: readonly F[];
  /** Prefixes this table's URL parameters, for pages with more than one table (tabs). */
  prefix?: string;
}

export interface TableController<F extends string = string> {
  page: number;
  size: number;
  q: string;
  sort: string;
  filters: Record<F, string>;
  /** What to send: page, size, q, sort and the filters with a value. */
  apiParams: Record<string, QueryValue>;
  setPage(page: number): void;
  setSize(size: number): void;
  setSearch(q: string): void;
  /** Sorts by `field`: ascending first, descending on the second click. */
  toggleSort(field: string): void;
  setFilter(name: F, value: string | null): void;
}

/**
 * A server-side table's state in the page URL (`?page=2&q=web&sort=-name`),
 * so a reload or a shared link shows the same rows. Changing the search, a
 * filter or the page size goes back to page 1.
 */
export function useTableParams<F extends string = never>(options: TableParamsOptions<F> = {}): TableController<F> {
  const [search, setSearchParams] = useSearchParams();
  const prefix = options.prefix ?? '';
  const defaultSize = options.defaultSize ?? 50;
  const filterNames = options.filters ?? [];
  const name = useCallback((key: string) => `${prefix}${key}`, [prefix]);

  const page = positiveInt(search.get(name('page'))) ?? 1;
  const size = positiveInt(search.get(name('size'))) ?? defaultSize;
  const q = search.get(name('q')) ?? '';
  const sort = search.get(name('sort')) ?? options.defaultSort ?? '';
  const filterKey = filterNames.map((f) => `${f}=${search.get(name(f)) ?? ''}`).join('&');

  const filters = useMemo(() => {
    const values = {} as Record<F, string>;
    for (const filter of filterNames) values[filter] = search.get(name(filter)) ?? '';
    return values;
    // filterKey captures the filter values; the names are fixed per page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey, name]);

  const update = useCallback(
    (changes: Record<string, string | null>, resetPage: boolean) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(name(key));
            else next.set(name(key), value);
          }
          if (resetPage) next.delete(name('page'));
          return next;
        },
        { replace: true },
      );
    },
    [name, setSearchParams],
  );

  const apiParams = useMemo(() => {
    const params: Record<string, QueryValue> = { page, size, q: q.trim(), sort };
    for (const [filter, value] of Object.entries(filters)) params[filter] = value as string;
    return params;
  }, [page, size, q, sort, filters]);

  return {
    page,
    size,
    q,
    sort,
    filters,
    apiParams,
    setPage: (next) => update({ page: next <= 1 ? null : String(next) }, false),
    setSize: (next) => update({ size: next === defaultSize ? null : String(next) }, true),
    setSearch: (next) => update({ q: next }, true),
    toggleSort: (field) => update({ sort: sort === field ? `-${field}` : field }, false),
    setFilter: (filter, value) => update({ [filter]: value }, true),
  };
}

function positiveInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 ? n : null;
}
