/** Uptime as the table shows it: "45s", "12m 05s", "3h 07m", "2d 04h". */
export function formatUptime(seconds: number | null): string {
  if (seconds === null || seconds < 0) return '—';
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d ${pad(Math.floor((s % 86_400) / 3600))}h`;
}

/**
 * Where to go after login: only a path of this app (one leading slash), so
 * `?next=` cannot send the user to another site.
 */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/login')) return '/services';
  return next;
}
