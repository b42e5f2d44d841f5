import type { TreeNode } from '../../core/read-only-tree.js';
import type { ExportTable, NfsActivity, ServedExport } from '../export-table.js';
import type { HandleIndex } from './handle-index.js';
import { DirectoryCache, type CachedListing } from './nfs3-dir-cache.js';
import { attributesOf, fattr3, nfs3Args, postOpAttr, wccData, type Fattr3 } from './nfs3-codec.js';
import { cookieValid, cookieVerifier, encodeDirectoryPage, type EncodedEntries } from './nfs3-readdir.js';
import {
  ACCESS3,
  DIR_PREF,
  DIR_REPLY_MAX_TCP,
  DIR_REPLY_MAX_UDP,
  FSF3,
  NAME_MAX,
  NFS3,
  NFS_PROGRAM,
  NFS_VERSION,
  NFSPROC3,
  READ_MAX_TCP,
  READ_MAX_UDP,
} from './nfs3-constants.js';
import { ReadCache, type CachedFile } from './read-cache.js';
import { treeStatus } from './nfs3-status.js';
import type { RpcCallContext, RpcOutcome, RpcProgram } from './rpc-program.js';
import { XdrWriter, type XdrReader } from './xdr.js';

/*
 * NFS version 3 (RFC 1813), read-only. Every call names a file by its
 * handle; the handle is verified (mac), its export looked up and checked
 * against the client's address, and its node found again in the export's
 * tree (handle-index.ts) before anything is answered. Writes are refused
 * with NFS3ERR_ROFS. TreeError codes become nfsstat3 codes (treeStatus).
 */

export interface Nfs3ProgramOptions {
  exports: ExportTable;
  activity: NfsActivity;
  /** Shared with the MOUNT program (MNT hands out root handles through it). */
  index: HandleIndex;
  /** READ's descriptors; the owner closes it (`readCache.close()`) when the service stops. */
  readCache?: ReadCache;
  dirCache?: DirectoryCache;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_FILE_SIZE = (1n << 63n) - 1n;
const REFUSED_REASON = 'client outside the export subnets';

interface Target {
  served: ServedExport;
  node: TreeNode;
  pathTag: bigint;
}

type Found = { ok: true; target: Target } | { ok: false; status: number };

function success(results: XdrWriter): RpcOutcome {
  return { status: 'success', results };
}

/** The parent of a tree path ('' stays ''). */
function parentPath(treePath: string): string {
  const slash = treePath.lastIndexOf('/');
  return slash < 0 ? '' : treePath.slice(0, slash);
}

export class Nfs3Program implements RpcProgram {
  readonly program = NFS_PROGRAM;
  readonly name = 'nfs';
  readonly versions = [NFS_VERSION] as const;
  readonly readCache: ReadCache;
  private readonly dirCache: DirectoryCache;
  private readonly exports: ExportTable;
  private readonly activity: NfsActivity;
  private readonly index: HandleIndex;

  constructor(options: Nfs3ProgramOptions) {
    this.exports = options.exports;
    this.activity = options.activity;
    this.index = options.index;
    this.readCache = options.readCache ?? new ReadCache();
    this.dirCache = options.dirCache ?? new DirectoryCache();
  }

  /** Forget cached files, listings and descriptors (call after the export table changed). */
  exportsChanged(): void {
    this.readCache.clear();
    this.dirCache.clear();
    this.index.attributes.clear();
  }

  call(version: number, procedure: number, args: XdrReader, context: RpcCallContext): RpcOutcome | Promise<RpcOutcome> {
    if (version !== NFS_VERSION) return { status: 'proc_unavail' };
    switch (procedure) {
      case NFSPROC3.NULL:
        return success(new XdrWriter(4));
      case NFSPROC3.GETATTR:
        return this.getattr(nfs3Args.handle(args), context);
      case NFSPROC3.LOOKUP:
        return this.lookup(args, context);
      case NFSPROC3.ACCESS:
        return this.access(args, context);
      case NFSPROC3.READLINK:
        return this.readlink(nfs3Args.handle(args), context);
      case NFSPROC3.READ:
        return this.read(args, context);
      case NFSPROC3.READDIR:
        return this.readdir(args, context);
      case NFSPROC3.READDIRPLUS:
        return this.readdirplus(args, context);
      case NFSPROC3.FSSTAT:
        return this.fsstat(nfs3Args.handle(args), context);
      case NFSPROC3.FSINFO:
        return this.fsinfo(nfs3Args.handle(args), context);
      case NFSPROC3.PATHCONF:
        return this.pathconf(nfs3Args.handle(args), context);
      case NFSPROC3.SETATTR:
      case NFSPROC3.WRITE:
      case NFSPROC3.CREATE:
      case NFSPROC3.MKDIR:
      case NFSPROC3.SYMLINK:
      case NFSPROC3.MKNOD:
      case NFSPROC3.REMOVE:
      case NFSPROC3.RMDIR:
      case NFSPROC3.RENAME:
      case NFSPROC3.LINK:
      case NFSPROC3.COMMIT:
        return this.refuseWrite(procedure, nfs3Args.handle(args), context);
      default:
        return { status: 'proc_unavail' };
    }
  }

  /**
   * The handle's node, or the status to answer (BADHANDLE, STALE, ACCES —
   * reported as refused). `fresh`: checked against the tree now, not through
   * the attribute cache — READ and READLINK, which answer with the bytes at
   * the node's path and must not give a replaced file's under the old handle.
   */
  private async find(handle: Buffer, context: RpcCallContext, fresh = false): Promise<Found> {
    const client = context.remote.address;
    const resolution = await this.index.resolve(handle, client, { fresh });
    switch (resolution.status) {
      case 'badhandle':
        return { ok: false, status: NFS3.ERR_BADHANDLE };
      case 'stale':
        return { ok: false, status: NFS3.ERR_STALE };
      case 'refused':
        this.activity.refused(client, resolution.export.path, REFUSED_REASON);
        return { ok: false, status: NFS3.ERR_ACCES };
      case 'ok':
        return { ok: true, target: { served: resolution.export, node: resolution.node, pathTag: resolution.fields.pathTag } };
    }
  }

  private served(context: RpcCallContext, target: Target, bytes = 0): void {
    this.activity.served(context.remote.address, target.served.id, bytes);
  }

  private attrs(target: Target): Fattr3 {
    return attributesOf(target.node, target.served.id);
  }

  /** A failure reply whose body is one post_op_attr (most procedures' resfail). */
  private failWithAttr(status: number, attributes: Fattr3 | null = null): RpcOutcome {
    const writer = new XdrWriter(96).uint32(status);
    postOpAttr.encode(writer, attributes);
    return success(writer);
  }

  private async getattr(handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context);
    if (!found.ok) return success(new XdrWriter(4).uint32(found.status));
    this.served(context, found.target);
    const writer = new XdrWriter(96).uint32(NFS3.OK);
    fattr3.encode(writer, this.attrs(found.target));
    return success(writer);
  }

  private async lookup(args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    const { dir, name } = nfs3Args.dirOp(args);
    const found = await this.find(dir, context);
    if (!found.ok) return this.failWithAttr(found.status);
    const target = found.target;
    this.served(context, target);
    const dirAttrs = this.attrs(target);
    if (target.node.type !== 'directory') return this.failWithAttr(NFS3.ERR_NOTDIR, dirAttrs);
    if (name.length > NAME_MAX) return this.failWithAttr(NFS3.ERR_NAMETOOLONG, dirAttrs);
    const text = name.toString('utf8');
    // A name with '/' or NUL cannot exist in a directory, nor can one that is not valid UTF-8 (tree names are strings).
    if (name.length === 0 || text.includes('/') || text.includes('\0') || !Buffer.from(text, 'utf8').equals(name)) return this.failWithAttr(NFS3.ERR_NOENT, dirAttrs);
    let childPath: string;
    if (text === '.') childPath = target.node.path;
    // '..' of the export root is the root itself: a client never climbs out of an export.
    else if (text === '..') childPath = parentPath(target.node.path);
    else childPath = target.node.path === '' ? text : `${target.node.path}/${text}`;
    let child: TreeNode | null;
    try {
      child = await this.index.attributes.stat(target.served.id, target.served.tree, childPath);
    } catch (error) {
      const status = treeStatus(error);
      if (status === null) throw error;
      return this.failWithAttr(status, dirAttrs);
    }
    if (!child) return this.failWithAttr(NFS3.ERR_NOENT, dirAttrs);
    const writer = new XdrWriter(256).uint32(NFS3.OK);
    writer.opaque(this.index.handleFor(target.served, child));
    postOpAttr.encode(writer, attributesOf(child, target.served.id));
    postOpAttr.encode(writer, dirAttrs);
    return success(writer);
  }

  private async access(args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    const { object, access } = nfs3Args.access(args);
    const found = await this.find(object, context);
    if (!found.ok) return this.failWithAttr(found.status);
    this.served(context, found.target);
    const node = found.target.node;
    // RFC 1813 §3.3.4: what "other" may do by the mode bits; never MODIFY, EXTEND or DELETE on a read-only export.
    const other = node.mode & 0o7;
    let allowed = 0;
    if (other & 0o4) allowed |= ACCESS3.READ;
    if (other & 0o1) allowed |= node.type === 'directory' ? ACCESS3.LOOKUP : ACCESS3.EXECUTE;
    const writer = new XdrWriter(100).uint32(NFS3.OK);
    postOpAttr.encode(writer, this.attrs(found.target));
    writer.uint32(access & allowed);
    return success(writer);
  }

  private async readlink(handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context, true);
    if (!found.ok) return this.failWithAttr(found.status);
    this.served(context, found.target);
    const attributes = this.attrs(found.target);
    if (found.target.node.type !== 'symlink') return this.failWithAttr(NFS3.ERR_INVAL, attributes);
    const writer = new XdrWriter(128).uint32(NFS3.OK);
    postOpAttr.encode(writer, attributes);
    writer.string(found.target.node.target ?? '');
    return success(writer);
  }

  /** READ's file: from the read cache when it was resolved moments ago, else resolved and cached. */
  private async readTarget(handle: Buffer, context: RpcCallContext): Promise<{ ok: true; file: CachedFile; served: ServedExport } | { ok: false; status: number; attributes: Fattr3 | null }> {
    const fields = this.index.codec.verify(handle);
    if (fields) {
      const served = this.exports.byId(fields.exportId);
      if (served && served.allows(context.remote.address)) {
        const cached = this.readCache.get(served.id, fields.nodeId, fields.pathTag, served.tree);
        if (cached) return { ok: true, file: cached, served };
      }
    }
    const found = await this.find(handle, context, true);
    if (!found.ok) return { ok: false, status: found.status, attributes: null };
    const { served, node, pathTag } = found.target;
    if (node.type !== 'file') return { ok: false, status: node.type === 'directory' ? NFS3.ERR_ISDIR : NFS3.ERR_INVAL, attributes: attributesOf(node, served.id) };
    try {
      return { ok: true, file: await this.readCache.put(served.id, pathTag, served.tree, node), served };
    } catch (error) {
      const status = treeStatus(error);
      if (status === null) throw error;
      return { ok: false, status, attributes: attributesOf(node, served.id) };
    }
  }

  private async read(args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    const { file: handle, offset, count } = nfs3Args.read(args);
    const target = await this.readTarget(handle, context);
    if (!target.ok) return this.failWithAttr(target.status, target.attributes);
    const { file, served } = target;
    const attributes = attributesOf(file.node, served.id);
    const cap = context.transport === 'udp' ? READ_MAX_UDP : READ_MAX_TCP;
    const want = Math.min(count, cap);
    const size = file.node.size;
    if (context.sendsFiles && offset < BigInt(size) && offset <= MAX_SAFE) {
      const sent = await this.readByFile(file, Number(offset), want, attributes, served.id, context);
      if (sent) return sent;
    }
    let data: Buffer;
    if (offset >= BigInt(size) || offset > MAX_SAFE) {
      data = Buffer.alloc(0);
    } else {
      try {
        data = await this.readCache.read(file, Number(offset), want);
      } catch (error) {
        const status = treeStatus(error);
        if (status === null) throw error;
        return this.failWithAttr(status, attributes);
      }
    }
    const eof = offset + BigInt(data.length) >= BigInt(size);
    this.activity.served(context.remote.address, served.id, data.length);
    const writer = new XdrWriter(112).uint32(NFS3.OK);
    postOpAttr.encode(writer, attributes);
    writer.uint32(data.length).bool(eof);
    // By reference: the file's bytes go to the socket without another copy.
    writer.attach(data);
    return success(writer);
  }

  /**
   * READ's results with the data left in the file for the transport to send
   * by sendfile (no read into memory, no copy); null when the tree has no
   * backing file, so the caller reads the bytes.
   */
  private async readByFile(file: CachedFile, offset: number, want: number, attributes: Fattr3, exportId: number, context: RpcCallContext): Promise<RpcOutcome | null> {
    let borrowed;
    try {
      borrowed = await this.readCache.borrow(file, offset, want);
    } catch (error) {
      const status = treeStatus(error);
      if (status === null) throw error;
      return this.failWithAttr(status, attributes);
    }
    if (!borrowed) return null;
    const eof = offset + borrowed.length >= file.node.size;
    this.activity.served(context.remote.address, exportId, borrowed.length);
    const writer = new XdrWriter(112).uint32(NFS3.OK);
    postOpAttr.encode(writer, attributes);
    // count, eof, then the opaque's length word: its bytes and padding are the tail.
    writer.uint32(borrowed.length).bool(eof).uint32(borrowed.length);
    const pad = (4 - (borrowed.length % 4)) % 4;
    return { status: 'success', results: writer, tail: { pieces: borrowed.pieces, length: borrowed.length, pad, release: borrowed.release } };
  }

  /** The directory and the entries after `cookie`, or the failure to answer. */
  private async listFrom(
    dirHandle: Buffer,
    cookie: bigint,
    verifier: Buffer,
    context: RpcCallContext,
  ): Promise<{ ok: true; target: Target; entries: TreeNode[]; encoded: EncodedEntries; start: number; verf: Buffer } | { ok: false; status: number; attributes: Fattr3 | null }> {
    const found = await this.find(dirHandle, context);
    if (!found.ok) return { ok: false, status: found.status, attributes: null };
    const target = found.target;
    this.served(context, target);
    const attributes = this.attrs(target);
    if (target.node.type !== 'directory') return { ok: false, status: NFS3.ERR_NOTDIR, attributes };
    let listing: CachedListing;
    try {
      listing = await this.dirCache.list(target.served.id, target.served.tree, target.node);
    } catch (error) {
      const status = treeStatus(error);
      if (status === null) throw error;
      return { ok: false, status, attributes };
    }
    const verf = cookieVerifier(target.node);
    if (!cookieValid(cookie, verifier, verf, listing.nodes.length)) return { ok: false, status: NFS3.ERR_BAD_COOKIE, attributes };
    return { ok: true, target, entries: listing.nodes, encoded: listing.encoded, start: Number(cookie), verf };
  }

  private async readdir(args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    const { dir, cookie, cookieverf, count } = nfs3Args.readdir(args);
    const listed = await this.listFrom(dir, cookie, cookieverf, context);
    if (!listed.ok) return this.failWithAttr(listed.status, listed.attributes);
    const budget = Math.min(count, context.transport === 'udp' ? DIR_REPLY_MAX_UDP : DIR_REPLY_MAX_TCP);
    const page = encodeDirectoryPage({ ...listed, attributes: this.attrs(listed.target), exportId: listed.target.served.id, budget, plus: null });
    return page ? success(page) : this.failWithAttr(NFS3.ERR_TOOSMALL, this.attrs(listed.target));
  }

  private async readdirplus(args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    const { dir, cookie, cookieverf, dircount, maxcount } = nfs3Args.readdirplus(args);
    const listed = await this.listFrom(dir, cookie, cookieverf, context);
    if (!listed.ok) return this.failWithAttr(listed.status, listed.attributes);
    const { served } = listed.target;
    const budget = Math.min(maxcount, context.transport === 'udp' ? DIR_REPLY_MAX_UDP : DIR_REPLY_MAX_TCP);
    const plus = { dircount, handleFor: (node: TreeNode) => this.index.handleFor(served, node) };
    const page = encodeDirectoryPage({ ...listed, attributes: this.attrs(listed.target), exportId: served.id, budget, plus });
    return page ? success(page) : this.failWithAttr(NFS3.ERR_TOOSMALL, this.attrs(listed.target));
  }

  private async fsstat(handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context);
    if (!found.ok) return this.failWithAttr(found.status);
    this.served(context, found.target);
    const writer = new XdrWriter(160).uint32(NFS3.OK);
    postOpAttr.encode(writer, this.attrs(found.target));
    // A read-only export has no free space and no free files; totals are not known without walking the tree, so 0.
    writer.uint64(0n).uint64(0n).uint64(0n).uint64(0n).uint64(0n).uint64(0n);
    writer.uint32(0); // invarsec: a folder may change at any time
    return success(writer);
  }

  private async fsinfo(handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context);
    if (!found.ok) return this.failWithAttr(found.status);
    this.served(context, found.target);
    const udp = context.transport === 'udp';
    const rtmax = udp ? READ_MAX_UDP : READ_MAX_TCP;
    const writer = new XdrWriter(160).uint32(NFS3.OK);
    postOpAttr.encode(writer, this.attrs(found.target));
    writer.uint32(rtmax).uint32(rtmax).uint32(4096); // rtmax, rtpref, rtmult
    writer.uint32(rtmax).uint32(rtmax).uint32(4096); // wtmax, wtpref, wtmult: writes answer ROFS anyway
    writer.uint32(udp ? READ_MAX_UDP : DIR_PREF); // dtpref
    writer.uint64(MAX_FILE_SIZE);
    writer.uint32(1).uint32(0); // time_delta: 1 s (ISO times have seconds; good enough for folders)
    writer.uint32(FSF3.SYMLINK | FSF3.HOMOGENEOUS);
    return success(writer);
  }

  private async pathconf(handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context);
    if (!found.ok) return this.failWithAttr(found.status);
    this.served(context, found.target);
    const writer = new XdrWriter(128).uint32(NFS3.OK);
    postOpAttr.encode(writer, this.attrs(found.target));
    writer.uint32(1).uint32(NAME_MAX); // linkmax, name_max
    writer.bool(true).bool(true).bool(false).bool(true); // no_trunc, chown_restricted, case_insensitive, case_preserving
    return success(writer);
  }

  /**
   * Every write procedure: NFS3ERR_ROFS (or the handle's own failure) with
   * the wcc data its resfail carries (RFC 1813 §3.3): one wcc_data, RENAME
   * two, LINK a post_op_attr then a wcc_data. No pre-operation attributes.
   */
  private async refuseWrite(procedure: number, handle: Buffer, context: RpcCallContext): Promise<RpcOutcome> {
    const found = await this.find(handle, context);
    let attributes: Fattr3 | null = null;
    if (found.ok) {
      this.served(context, found.target);
      attributes = this.attrs(found.target);
    }
    const writer = new XdrWriter(200).uint32(found.ok ? NFS3.ERR_ROFS : found.status);
    if (procedure === NFSPROC3.LINK) {
      postOpAttr.encode(writer, attributes);
      wccData.encode(writer, null);
    } else if (procedure === NFSPROC3.RENAME) {
      wccData.encode(writer, attributes);
      wccData.encode(writer, null);
    } else {
      wccData.encode(writer, attributes);
    }
    return success(writer);
  }
}
