import { AppError } from '../errors.js';

export interface ListQueryInput {
  page?: number;
  size?: number;
  q?: string;
  sort?: string;
}

export interface ListOptions<T> {
  /** Fields that `sort` may name; any other is a 400. */
  sortable: readonly (keyof T & string)[];
  /** The default order when `sort` is absent. */
  defaultSort?: string;
  /** The texts `q` is matched against (case-insensitive substring). */
  searchText?: (row: T) => readonly (string | number | null | undefined)[];
}

export interface ListPage<T> {
  data: T[];
  meta: { total: number; page: number; size: number };
}

/** Applies the list conventions (q, sort, page, size) to rows held in memory. */
export function paginate<T extends object>(rows: readonly T[], query: ListQueryInput, options: ListOptions<T>): ListPage<T> {
  const page = query.page ?? 1;
  const size = query.size ?? 50;
  let selected: T[] = [...rows];
  const q = query.q?.trim().toLowerCase();
  if (q && options.searchText) {
    const searchText = options.searchText;
    selected = selected.filter((row) =>
      searchText(row).some((text) => text !== null && text !== undefined && String(text).toLowerCase().includes(q)),
    );
  }
  const sort = query.sort ?? options.defaultSort;
  if (sort) {
    const descending = sort.startsWith('-');
    const field = descending ? sort.slice(1) : sort;
    if (!(options.sortable as readonly string[]).includes(field)) {
      throw new AppError('VALIDATION_FAILED', `sort: unknown field "${field}"; sortable fields are ${options.sortable.join(', ')}`, {
        details: [{ field: 'querystring.sort', message: `unknown sort field "${field}"` }],
      });
    }
    const key = field as keyof T;
    selected.sort((a, b) => compareValues(a[key], b[key]) * (descending ? -1 : 1));
  }
  const start = (page - 1) * size;
  return { data: selected.slice(start, start + size), meta: { total: selected.length, page, size } };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}
