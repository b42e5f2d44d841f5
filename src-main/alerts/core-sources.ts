import type { AppEvent } from '../events/event-types.js';
import type { ServiceStatus } from '../services/services-contract.js';
import type { RaisedAlert } from './alerts-contract.js';

/** Services with a page of their own in the console; the others are on the Services page. */
const SERVICE_PAGES = new Set(['dns', 'dhcp', 'tftp', 'nfs']);

/** A failed service is an error; a running one that waits for something (no link, no address) a warning. */
export function serviceAlerts(services: readonly ServiceStatus[]): RaisedAlert[] {
  const alerts: RaisedAlert[] = [];
  for (const service of services) {
    const link = SERVICE_PAGES.has(service.name) ? `/services/${service.name}` : '/services';
    if (service.state === 'failed') {
      alerts.push({
        id: `service.${service.name}`,
        severity: 'error',
        source: 'services',
        title: `${service.name.toUpperCase()} failed`,
        message: service.last_error ?? `the ${service.name} service failed without saying why; see the log`,
        since: null,
        link,
      });
    } else if (service.state === 'running' && service.notice !== null) {
      alerts.push({ id: `service.${service.name}.notice`, severity: 'warning', source: 'services', title: `${service.name.toUpperCase()}: ${service.notice}`, message: service.notice, since: null, link });
    }
  }
  return alerts;
}

/** A client asking this often for the same missing file within the window is stuck on it. */
export const MISSING_FILE_REPEATS = 3;
export const MISSING_FILE_WINDOW_MS = 10 * 60_000;

/**
 * Files boot loaders look for and do without: GRUB's module lists and
 * per-platform configuration, shim's revocation lists and certificates, the
 * PXELINUX per-machine configs. A request for one that is not there is
 * normal, never an alert.
 */
const PROBED_FILES = [/\.(?:lst|mod)$/, /(?:^|\/)(?:x86_64|i386|arm64|arm)-efi\/grub\.cfg$/, /(?:^|\/)(?:revocations_[a-z]+|shim_certificate_\d+)\.efi$/, /(?:^|\/)pxelinux\.cfg\//];

/**
 * TFTP clients that keep asking for a file that is not there (a profile or
 * archmap naming a missing kernel, a boot loader in a retry loop), from the
 * event log's recent `tftp.transfer.failed` events: one alert per client.
 */
export function missingFileAlerts(events: readonly AppEvent[], now: number): RaisedAlert[] {
  const counts = new Map<string, { ip: string; file: string; count: number; first: string }>();
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (now - Date.parse(event.created_at) > MISSING_FILE_WINDOW_MS) break;
    if (event.kind !== 'tftp.transfer.failed' || !event.ip) continue;
    const detail = event.detail ?? {};
    const file = typeof detail['file'] === 'string' ? detail['file'] : null;
    const notFound = detail['error_code'] === 1 || (typeof detail['error'] === 'string' && /not found|no such file/i.test(detail['error']));
    if (file === null || !notFound || PROBED_FILES.some((pattern) => pattern.test(file))) continue;
    const key = `${event.ip}\n${file}`;
    const seen = counts.get(key);
    if (seen) {
      seen.count += 1;
      seen.first = event.created_at;
    } else counts.set(key, { ip: event.ip, file, count: 1, first: event.created_at });
  }
  const byClient = new Map<string, { ip: string; files: string[]; first: string }>();
  for (const entry of counts.values()) {
    if (entry.count < MISSING_FILE_REPEATS) continue;
    const client = byClient.get(entry.ip) ?? { ip: entry.ip, files: [], first: entry.first };
    client.files.push(entry.file);
    if (entry.first < client.first) client.first = entry.first;
    byClient.set(entry.ip, client);
  }
  return [...byClient.values()].map((client) => ({
    id: `tftp.missing.${client.ip}`,
    severity: 'warning',
    source: 'tftp',
    title: `${client.ip} keeps asking for ${client.files.length === 1 ? 'a file' : 'files'} the TFTP root does not have`,
    message: `${client.files.sort().join(', ')}: asked ${MISSING_FILE_REPEATS} times or more in ${MISSING_FILE_WINDOW_MS / 60_000} minutes. Copy the file into the boot root, or fix the profile, archmap or reservation that names it.`,
    since: client.first,
    link: '/services/tftp',
  }));
}
