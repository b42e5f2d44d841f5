import type { Counter } from 'prom-client';
import type { EventInput } from '../events/event-types.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NfsClient } from './nfs-contract.js';
import type { NfsActivity, RpcCallRecord } from './export-table.js';

/*
 * What NFS clients do, as the programs report it (export-table.ts,
 * NfsActivity): the connected-clients view of GET /services/nfs/status, the
 * events nfs.mounted / nfs.unmounted / nfs.refused, and the metrics. Memory
 * is bounded: at most MAX_CLIENTS clients are remembered (the one seen least
 * recently is dropped first), each with at most MAX_MOUNTS mount paths.
 */

export const MAX_CLIENTS = 1000;
const MAX_MOUNTS = 64;
/** At most one nfs.refused event per client per minute: a client retrying a refused mount must not flood the event log. */
export const REFUSED_EVENT_INTERVAL_MS = 60_000;

/** Procedure names by program (RFC 1813 §3 and §5.2, RFC 1833), for the requests metric's label. */
const PROCEDURE_NAMES: Record<string, readonly string[]> = {
  nfs: ['NULL', 'GETATTR', 'SETATTR', 'LOOKUP', 'ACCESS', 'READLINK', 'READ', 'WRITE', 'CREATE', 'MKDIR', 'SYMLINK', 'MKNOD', 'REMOVE', 'RMDIR', 'RENAME', 'LINK', 'READDIR', 'READDIRPLUS', 'FSSTAT', 'FSINFO', 'PATHCONF', 'COMMIT'],
  mount: ['NULL', 'MNT', 'DUMP', 'UMNT', 'UMNTALL', 'EXPORT'],
  portmap: ['NULL', 'SET', 'UNSET', 'GETPORT', 'DUMP', 'CALLIT'],
};

/** "nfs.READ", "mount.MNT"; a number for a procedure the table does not name. */
export function procedureLabel(program: string, procedure: number): string {
  return `${program}.${PROCEDURE_NAMES[program]?.[procedure] ?? String(procedure)}`;
}

interface ClientRecord {
  address: string;
  mounts: Set<string>;
  firstSeen: number;
  lastSeen: number;
  requests: number;
  bytesRead: number;
  refused: number;
  /** When its last nfs.refused event went out, and how many refusals were not reported since. */
  refusedEventAt: number | null;
  suppressed: number;
}

export interface NfsClientsDeps {
  events: { emit(input: EventInput): unknown };
  metrics: Metrics;
  /** The clock (tests); default Date.now. */
  now?: () => number;
  maxClients?: number;
}

export class NfsClients implements NfsActivity {
  /** Insertion order is recency: a client touched moves to the end; the first one is the least recently seen. */
  private readonly clients = new Map<string, ClientRecord>();
  private readonly now: () => number;
  private readonly maxClients: number;
  private readonly requestsMetric: Counter<'procedure'>;
  private readonly bytesMetric: Counter;
  private readonly refusedMetric: Counter;
  private totals = { requests: 0, bytesRead: 0, refused: 0 };

  constructor(private readonly deps: NfsClientsDeps) {
    this.now = deps.now ?? Date.now;
    this.maxClients = deps.maxClients ?? MAX_CLIENTS;
    this.requestsMetric = deps.metrics.counter({ name: 'bootwright_nfs_requests_total', help: 'RPC calls answered by the NFS server (NFS, MOUNT, portmapper), by procedure.', labelNames: ['procedure'] as const });
    this.bytesMetric = deps.metrics.counter({ name: 'bootwright_nfs_read_bytes_total', help: 'File bytes sent by NFS READ.' });
    this.refusedMetric = deps.metrics.counter({ name: 'bootwright_nfs_refused_total', help: 'NFS and MOUNT requests refused because the client is outside the export\'s subnets.' });
    const clients = this.clients;
    deps.metrics.gauge({
      name: 'bootwright_nfs_clients',
      help: 'NFS clients with at least one export mounted (MNT without UMNT).',
      collect() {
        let mounted = 0;
        for (const client of clients.values()) if (client.mounts.size > 0) mounted += 1;
        this.set(mounted);
      },
    });
  }

  mounted(client: string, exportPath: string): void {
    const record = this.touch(client);
    if (record.mounts.size < MAX_MOUNTS || record.mounts.has(exportPath)) record.mounts.add(exportPath);
    this.deps.events.emit({ kind: 'nfs.mounted', message: `NFS client ${client} mounted ${exportPath}`, ip: client, detail: { client, export: exportPath } });
  }

  unmounted(client: string, exportPath: string | null): void {
    const record = this.touch(client);
    if (exportPath === null) record.mounts.clear();
    else record.mounts.delete(exportPath);
    this.deps.events.emit({
      kind: 'nfs.unmounted',
      message: exportPath === null ? `NFS client ${client} unmounted every export` : `NFS client ${client} unmounted ${exportPath}`,
      ip: client,
      detail: { client, export: exportPath },
    });
  }

  refused(client: string, exportPath: string | null, reason: string): void {
    const record = this.touch(client);
    record.refused += 1;
    this.totals.refused += 1;
    this.refusedMetric.inc();
    const now = this.now();
    if (record.refusedEventAt !== null && now - record.refusedEventAt < REFUSED_EVENT_INTERVAL_MS) {
      record.suppressed += 1;
      return;
    }
    const suppressed = record.suppressed;
    record.refusedEventAt = now;
    record.suppressed = 0;
    this.deps.events.emit({
      kind: 'nfs.refused',
      level: 'warn',
      message: `NFS client ${client} refused${exportPath ? ` for ${exportPath}` : ''}: ${reason}`,
      ip: client,
      detail: { client, export: exportPath, reason, suppressed },
    });
  }

  served(client: string, _exportId: number, bytes: number): void {
    const record = this.touch(client);
    record.requests += 1;
    if (bytes > 0) {
      record.bytesRead += bytes;
      this.totals.bytesRead += bytes;
      this.bytesMetric.inc(bytes);
    }
  }

  /** The RPC server's per-call observer (RpcCallObserver, export-table.ts): counts every call by procedure. */
  readonly observeCall = (record: RpcCallRecord): void => {
    this.totals.requests += 1;
    this.requestsMetric.inc({ procedure: procedureLabel(record.program, record.procedure) });
  };

  /** The clients seen since the service started, most recently seen first. */
  list(): NfsClient[] {
    return [...this.clients.values()].reverse().map((record) => ({
      address: record.address,
      mounts: [...record.mounts],
      first_seen: new Date(record.firstSeen).toISOString(),
      last_seen: new Date(record.lastSeen).toISOString(),
      requests: record.requests,
      bytes_read: record.bytesRead,
      refused: record.refused,
    }));
  }

  /** Requests, bytes read and refusals since the service started. */
  counters(): { requests: number; bytes_read: number; refused: number } {
    return { requests: this.totals.requests, bytes_read: this.totals.bytesRead, refused: this.totals.refused };
  }

  /** Forgets clients and counters (the service calls it when it starts; the metrics keep counting). */
  reset(): void {
    this.clients.clear();
    this.totals = { requests: 0, bytesRead: 0, refused: 0 };
  }

  private touch(address: string): ClientRecord {
    const now = this.now();
    let record = this.clients.get(address);
    if (record) {
      this.clients.delete(address);
    } else {
      record = { address, mounts: new Set(), firstSeen: now, lastSeen: now, requests: 0, bytesRead: 0, refused: 0, refusedEventAt: null, suppressed: 0 };
      while (this.clients.size >= this.maxClients) {
        const oldest = this.clients.keys().next();
        if (oldest.done) break;
        this.clients.delete(oldest.value);
      }
    }
    record.lastSeen = now;
    this.clients.set(address, record);
    return record;
  }
}
