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
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/login')) return '/';
  return next;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 time in the viewer's local time: "2024-05-01 14:03:09"; "—" for none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

/**
 * The zone every time on screen is shown in (the browser's), e.g.
 * "Europe/Berlin (UTC+01:00)": an admin on the LAN may sit in another zone
 * than the server, and the log and event times must be read right.
 */
export function localTimeZone(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  const offset = -at.getTimezoneOffset() || 0;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${zone} (UTC${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)})`;
}

/** "just now", "5 min ago", "3 h ago", "in 2 days" relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  const say = (amount: number, unit: string) => (seconds < 0 ? `${amount} ${unit} ago` : `in ${amount} ${unit}`);
  if (abs < 45) return seconds < 0 || abs < 5 ? 'just now' : 'in a few seconds';
  if (abs < 3600) return say(Math.max(1, Math.round(abs / 60)), 'min');
  if (abs < 86_400) return say(Math.round(abs / 3600), 'h');
  const days = Math.round(abs / 86_400);
  return say(days, days === 1 ? 'day' : 'days');
}

/** Bytes in binary units: "512 B", "1.5 KiB", "20.0 MiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || bytes < 0) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
