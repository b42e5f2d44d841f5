/**
 * Which object a successful change was about, read from the response's
 * `data` (the API answers creates and updates with the object): its id and a
 * name people know it by. The audit row then says "hosts.create → web01
 * (#14)", not "hosts.create → hosts". Fields are tried in order; a DNS
 * record is named with its type ("www (A)").
 */
export interface AuditSubject {
  id: string | null;
  name: string | null;
}

const NAME_FIELDS = ['name', 'hostname', 'username', 'title', 'label', 'mac', 'slug', 'subnet', 'path'] as const;
/** Responses larger than this are not parsed for a name (exports, listings): the row keeps its action only. */
export const MAX_SUBJECT_PAYLOAD = 256 * 1024;
const MAX_NAME = 120;

export function auditSubject(payload: unknown): AuditSubject | null {
  if (typeof payload !== 'string' || payload.length > MAX_SUBJECT_PAYLOAD || !payload.startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed['success'] !== true || !isRecord(parsed['data'])) return null;
  const data = parsed['data'];
  const rawId = data['id'];
  const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) ? String(rawId) : typeof rawId === 'string' && rawId.length <= 64 ? rawId : null;
  let name: string | null = null;
  for (const field of NAME_FIELDS) {
    const value = data[field];
    if (typeof value === 'string' && value.trim() !== '') {
      name = value.trim();
      break;
    }
  }
  if (name !== null && typeof data['type'] === 'string' && data['type'].length <= 16) name = `${name} (${data['type']})`;
  if (id === null && name === null) return null;
  return { id, name: name === null ? null : name.slice(0, MAX_NAME) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
