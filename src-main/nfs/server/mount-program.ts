import type { TreeNode } from '../../core/read-only-tree.js';
import type { ExportTable, NfsActivity, ServedExport } from '../export-table.js';
import type { HandleIndex } from './handle-index.js';
import { MNT3, MNTPATHLEN, MOUNT_AUTH_FLAVORS, MOUNT_PROGRAM, MOUNT_VERSION, MOUNTPROC3 } from './nfs3-constants.js';
import { treeStatus } from './nfs3-status.js';
import type { RpcCallContext, RpcOutcome, RpcProgram } from './rpc-program.js';
import { XdrWriter, type XdrReader } from './xdr.js';

/*
 * MOUNT version 3 (RFC 1813 §5): how a client gets the root handle of an
 * export. MNT checks the path against the export table and the client's
 * address against the export's subnets; DUMP lists the mounts recorded
 * since start (kept in memory only: MOUNT's list is advisory by design);
 * EXPORT lists every served export with its subnets as groups.
 */

export interface MountProgramOptions {
  exports: ExportTable;
  activity: NfsActivity;
  /** Shared with the NFS program: MNT's root handles are remembered there. */
  index: HandleIndex;
  /** Most mounts DUMP remembers (default 4,096; the oldest go first). */
  maxMounts?: number;
}

/**
 * DUMP and EXPORT over UDP stop adding items past this many bytes: one more
 * item (≤ 1,284 bytes of names, or an export with its groups) still leaves the
 * reply under a datagram's 65,507 bytes with the RPC header.
 */
const UDP_LIST_BYTES = 48 * 1024;

function success(results: XdrWriter): RpcOutcome {
  return { status: 'success', results };
}

/** A mount path as the export table knows it: leading slash, no trailing slash, no empty or '.' segments. */
function normaliseMountPath(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  const segments: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return null;
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** MOUNT version 1 (RFC 1094 appendix A), which showmount still speaks. */
export const MOUNT_V1 = 1;

export class MountProgram implements RpcProgram {
  readonly program = MOUNT_PROGRAM;
  readonly name = 'mount';
  /**
   * v3, and v1 for what showmount asks (EXPORT, DUMP): their arguments and
   * results are the same in both. v1's MNT returns an NFS v2 file handle,
   * and there is no NFS v2 here, so v1 MNT is PROC_UNAVAIL.
   */
  readonly versions = [MOUNT_V1, MOUNT_VERSION] as const;
  private readonly exports: ExportTable;
  private readonly activity: NfsActivity;
  private readonly index: HandleIndex;
  private readonly maxMounts: number;
  /** "client\0path" → mount, in insertion order. */
  private readonly mounts = new Map<string, { client: string; path: string }>();

  constructor(options: MountProgramOptions) {
    this.exports = options.exports;
    this.activity = options.activity;
    this.index = options.index;
    this.maxMounts = options.maxMounts ?? 4096;
  }

  /** The mounts DUMP reports (the status view may show them). */
  mountList(): { client: string; path: string }[] {
    return [...this.mounts.values()];
  }

  call(version: number, procedure: number, args: XdrReader, context: RpcCallContext): RpcOutcome | Promise<RpcOutcome> {
    if (version !== MOUNT_VERSION && (version !== MOUNT_V1 || procedure === MOUNTPROC3.MNT)) return { status: 'proc_unavail' };
    switch (procedure) {
      case MOUNTPROC3.NULL:
        return success(new XdrWriter(4));
      case MOUNTPROC3.MNT:
        return this.mnt(args.string(MNTPATHLEN, 'dirpath'), context);
      case MOUNTPROC3.DUMP:
        return success(this.dump(context.transport === 'udp' ? UDP_LIST_BYTES : Infinity));
      case MOUNTPROC3.UMNT:
        return this.umnt(args.string(MNTPATHLEN, 'dirpath'), context);
      case MOUNTPROC3.UMNTALL:
        return this.umntall(context);
      case MOUNTPROC3.EXPORT:
        return success(this.exportList(context.transport === 'udp' ? UDP_LIST_BYTES : Infinity));
      default:
        return { status: 'proc_unavail' };
    }
  }

  /** The export `path` names (itself, or a directory inside it: clients may mount a subdirectory) and the tree path below it. */
  private locate(path: string): { served: ServedExport; treePath: string } | null {
    const exact = this.exports.byPath(path);
    if (exact) return { served: exact, treePath: '' };
    let best: ServedExport | null = null;
    for (const served of this.exports.list()) {
      if (path.startsWith(`${served.path}/`) && (!best || served.path.length > best.path.length)) best = served;
    }
    return best ? { served: best, treePath: path.slice(best.path.length + 1) } : null;
  }

  private async mnt(rawPath: string, context: RpcCallContext): Promise<RpcOutcome> {
    const client = context.remote.address;
    const path = normaliseMountPath(rawPath);
    const located = path === null ? null : this.locate(path);
    if (!path || !located) return success(new XdrWriter(4).uint32(MNT3.ERR_NOENT));
    const { served, treePath } = located;
    if (!served.allows(client)) {
      this.activity.refused(client, served.path, 'client outside the export subnets');
      return success(new XdrWriter(4).uint32(MNT3.ERR_ACCES));
    }
    let node: TreeNode | null;
    try {
      node = await served.tree.stat(treePath);
    } catch (error) {
      const status = treeStatus(error);
      if (status === null) throw error;
      // nfsstat3 and mountstat3 share their numbers for these (NOENT, IO, ACCES, NOTDIR).
      return success(new XdrWriter(4).uint32(status));
    }
    if (!node) return success(new XdrWriter(4).uint32(MNT3.ERR_NOENT));
    if (node.type !== 'directory') return success(new XdrWriter(4).uint32(MNT3.ERR_NOTDIR));
    const handle = this.index.handleFor(served, node);
    this.record(client, path);
    this.activity.mounted(client, served.path);
    const writer = new XdrWriter(64).uint32(MNT3.OK).opaque(handle);
    writer.uint32(MOUNT_AUTH_FLAVORS.length);
    for (const flavor of MOUNT_AUTH_FLAVORS) writer.uint32(flavor);
    return success(writer);
  }

  private record(client: string, path: string): void {
    const key = `${client}\0${path}`;
    this.mounts.delete(key);
    this.mounts.set(key, { client, path });
    while (this.mounts.size > this.maxMounts) {
      const oldest = this.mounts.keys().next().value;
      if (oldest === undefined) break;
      this.mounts.delete(oldest);
    }
  }

  /** RFC 1813 §5.2.2: mountlist, a linked list of (hostname, directory). */
  private dump(maxBytes: number): XdrWriter {
    const writer = new XdrWriter(256);
    for (const mount of this.mounts.values()) {
      if (writer.length > maxBytes) break;
      writer.bool(true).string(mount.client).string(mount.path);
    }
    return writer.bool(false);
  }

  private umnt(rawPath: string, context: RpcCallContext): RpcOutcome {
    const client = context.remote.address;
    const path = normaliseMountPath(rawPath);
    if (path !== null) {
      this.mounts.delete(`${client}\0${path}`);
      this.activity.unmounted(client, this.locate(path)?.served.path ?? path);
    }
    return success(new XdrWriter(4));
  }

  private umntall(context: RpcCallContext): RpcOutcome {
    const client = context.remote.address;
    for (const [key, mount] of this.mounts) if (mount.client === client) this.mounts.delete(key);
    this.activity.unmounted(client, null);
    return success(new XdrWriter(4));
  }

  /** RFC 1813 §5.2.5: exports, a linked list of (directory, groups linked list). */
  private exportList(maxBytes: number): XdrWriter {
    const writer = new XdrWriter(256);
    for (const served of this.exports.list()) {
      if (writer.length > maxBytes) break;
      writer.bool(true).string(served.path);
      for (const group of served.clients) writer.bool(true).string(group);
      writer.bool(false);
    }
    return writer.bool(false);
  }
}
