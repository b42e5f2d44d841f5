/** RFC 3339 UTC timestamp with milliseconds, the one time format of the store and API. */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
