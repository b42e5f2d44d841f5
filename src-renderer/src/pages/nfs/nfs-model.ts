import type { NfsExport, NfsExportInput, NfsSettingsView } from '@contracts/nfs';
import { isApiError } from '../../api/api-error.js';
import { fieldPath } from '../../components/form-errors.js';

/** "192.168.50.0/24, fd00::/64" (commas, spaces or lines) → the list the API takes. */
export function parseSubnets(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;

/** A quick check before saving (the API checks for real): an address with an optional prefix length. */
export function subnetProblem(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return `"${entry}" is no subnet`;
  const v4 = IPV4.test(address);
  if (!v4 && !IPV6.test(address)) return `"${entry}" is no IPv4 or IPv6 subnet`;
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (v4 ? 32 : 128)) return `"${entry}": prefix length 0–${v4 ? 32 : 128}`;
  return null;
}

/** The first problem of a subnet list, or null; `required` when at least one is needed. */
export function subnetsProblem(text: string, required: boolean): string | null {
  const entries = parseSubnets(text);
  if (required && entries.length === 0) return 'At least one subnet (0.0.0.0/0 allows every IPv4 client)';
  for (const entry of entries) {
    const problem = subnetProblem(entry);
    if (problem) return problem;
  }
  return null;
}

/**
 * The address clients mount from: the host of the first LAN URL the status
 * names (what the dashboard shows as "On the LAN"); IPv6 keeps its brackets,
 * which mount(8) wants too.
 */
export function lanHost(urls: readonly string[]): string | null {
  for (const url of urls) {
    try {
      const host = new URL(url).hostname;
      if (host) return host;
    } catch {
      // Not a URL: try the next one.
    }
  }
  return null;
}

/**
 * The command a Linux client mounts an export with (NFS v3 over TCP, no lock
 * manager: the server is read-only). Without a portmapper the client cannot
 * ask for the ports, so they are in the options.
 */
export function mountCommand(host: string | null, path: string, ports: { nfs: number; mount: number } | null = null): string {
  const portOptions = ports ? `,port=${ports.nfs},mountport=${ports.mount}` : '';
  return `mount -t nfs -o vers=3,proto=tcp,nolock${portOptions} ${host ?? '<server address>'}:${path} /mnt`;
}

/** The ports a mount command must name: when the portmapper is off (or none could be had), else null. */
export function explicitPorts(settings: Pick<NfsSettingsView, 'portmapper' | 'nfs_port' | 'mount_port'>, portmapperMode: 'own' | 'rpcbind' | 'none' | null): { nfs: number; mount: number } | null {
  const without = settings.portmapper === 'off' || portmapperMode === 'none';
  return without ? { nfs: settings.nfs_port, mount: settings.mount_port } : null;
}

/** A stored export as PUT /services/nfs takes it back (with its id, so its file handles stay valid). */
export function toInput(entry: NfsExport): NfsExportInput {
  return {
    id: entry.id,
    path: entry.path,
    folder: entry.folder,
    image_id: entry.image_id,
    clients: [...entry.clients],
    enabled: entry.enabled,
    comment: entry.comment,
  };
}

/** The whole exports list with one export replaced (`index`) or added (null), or removed (`input` null). */
export function exportsWith(current: readonly NfsExport[], index: number | null, input: NfsExportInput | null): NfsExportInput[] {
  const list = current.map(toInput);
  if (index === null) return input ? [...list, input] : list;
  if (input === null) return list.filter((_, position) => position !== index);
  return list.map((entry, position) => (position === index ? input : entry));
}

export type ExportField = 'path' | 'folder' | 'image_id' | 'clients' | 'enabled' | 'comment';
const EXPORT_FIELDS: readonly string[] = ['path', 'folder', 'image_id', 'clients', 'enabled', 'comment'];

/**
 * A failed save of the exports list, told for the export being edited
 * (position `index` in the list sent): its field errors
 * (`body.exports[2].clients[0]` → clients), and the rest as one message.
 */
export function exportSaveErrors(error: unknown, index: number): { fields: Partial<Record<ExportField, string>>; message: string | null } {
  if (!isApiError(error) || error.details.length === 0) return { fields: {}, message: error instanceof Error ? error.message : String(error) };
  const fields: Partial<Record<ExportField, string>> = {};
  const rest: string[] = [];
  for (const detail of error.details) {
    const parts = (fieldPath(detail.field) ?? '').split('.');
    const field = parts[2];
    if (parts[0] === 'exports' && parts[1] === String(index) && field !== undefined && EXPORT_FIELDS.includes(field)) {
      fields[field as ExportField] ??= detail.message;
    } else {
      rest.push(`${detail.field}: ${detail.message}`);
    }
  }
  const message = rest.length > 0 ? rest.join('; ') : Object.keys(fields).length === 0 ? error.message : null;
  return { fields, message };
}

/** "folder /srv/live" or the image's name (its id only while the name is unknown). */
export function sourceLabel(entry: Pick<NfsExport, 'folder' | 'image_id'>, imageNames: ReadonlyMap<number, string>): string {
  if (entry.image_id !== null) return `image ${imageNames.get(entry.image_id) ?? `#${entry.image_id}`}`;
  return `folder ${entry.folder ?? ''}`;
}

/** What each portmapper mode means for the clients. */
export const PORTMAPPER_HELP: Record<'auto' | 'own' | 'rpcbind' | 'off', string> = {
  auto: 'Answer on port 111 ourselves; if the system’s rpcbind owns it, register with that one instead.',
  own: 'Always our own portmapper on port 111 (fails to start when the port is taken).',
  rpcbind: 'Register our ports with the system’s rpcbind (it must run).',
  off: 'No portmapper: clients must be given port= and mountport= in their mount options.',
};
