export type QueryValue = string | number | boolean | null | undefined;

/** A list request's page, size, q, sort and filters (the API's list query). */
export type ListParams = Record<string, QueryValue>;

/**
 * `path?k=v&…` from the parameters that carry a value: undefined, null and ''
 * are left out, so an empty filter means "no filter" rather than "equals ''"
 * (the API rejects unknown and empty enum values).
 */
export function withQuery(path: string, params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** A path segment (an id, a MAC, a service name) made safe for a URL path. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}
