import type { ReadOnlyTree } from '../core/read-only-tree.js';

/*
 * The seam between the MOUNT/NFS programs (server/) and the area that decides
 * what is exported (nfs-exports.ts): the programs look exports up here and
 * report what clients do; they never read settings or the store. It lives
 * beside the domain files, not in server/: the server imports the area's
 * domain, never the other way round (docs/architecture.md).
 */

/** One export as the programs serve it. */
export interface ServedExport {
  /** Stable id (stored with the export): part of every file handle and the fsid of its attributes. */
  readonly id: number;
  /** The path clients mount, e.g. "/debian-live" or "/iso/debian-12.8.0-amd64-netinst". */
  readonly path: string;
  /** Its content: a confined folder (core/folder-tree.ts) or an ISO through our reader. */
  readonly tree: ReadOnlyTree;
  /** What it serves, for logs and EXPORT's listing: "folder /srv/live" or "image 3 (debian-12…iso)". */
  readonly source: string;
  /** The allowed client subnets as given (CIDR), for MOUNT EXPORT's group list. */
  readonly clients: readonly string[];
  /** Whether `address` (dotted IPv4 or IPv6 text) is inside one of the allowed subnets. */
  allows(address: string): boolean;
}

export interface ExportTable {
  /** The exports served now (enabled, with a usable source). */
  list(): readonly ServedExport[];
  /** The export mounted by `path` (exact match after trimming a trailing slash). */
  byPath(path: string): ServedExport | undefined;
  /** The export a file handle names; undefined when it is gone (the programs answer NFS3ERR_STALE). */
  byId(id: number): ServedExport | undefined;
}

/** What the programs report, for the connected-clients view, events and metrics. */
export interface NfsActivity {
  /** MOUNT MNT granted. */
  mounted(client: string, exportPath: string): void;
  /** MOUNT UMNT / UMNTALL. */
  unmounted(client: string, exportPath: string | null): void;
  /** A request refused because the client is outside the export's subnets (MNT3ERR_ACCES / NFS3ERR_ACCES). */
  refused(client: string, exportPath: string | null, reason: string): void;
  /** READ bytes served (and any NFS call, bytes 0) — keeps the client's last-seen time. */
  served(client: string, exportId: number, bytes: number): void;
}

/** One finished call, for metrics and the connected-clients view (called on the hot path: keep it cheap). */
export interface RpcCallRecord {
  program: string;
  version: number;
  procedure: number;
  transport: 'tcp' | 'udp';
  remote: string;
  /** 'success' or the refusal, including the transport's own (prog_unavail, prog_mismatch, rpc_mismatch, too_large). */
  outcome: string;
  /** Bytes of the reply sent (0 when none was). */
  replyBytes: number;
}

export type RpcCallObserver = (record: RpcCallRecord) => void;
