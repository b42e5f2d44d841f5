import type { TreeNode } from '../../core/read-only-tree.js';
import { MAX_NAME_BYTES, NF3, NFS3_COOKIEVERFSIZE, NFS3_FHSIZE } from './nfs3-constants.js';
import { paddedLength, type XdrReader, type XdrWriter } from './xdr.js';

/*
 * NFS v3 structures (RFC 1813 §2.5, §2.6, §3.3): argument decoders per
 * procedure and reply encoders for the shared pieces (fattr3, post_op_attr,
 * wcc_data, post_op_fh3, directory entries). Each encoder has an
 * encodingLength so READDIR/READDIRPLUS can fill a reply up to the client's
 * count without building it twice.
 */

export interface NfsTime {
  seconds: number;
  nseconds: number;
}

/** RFC 1813 §2.6 fattr3. */
export interface Fattr3 {
  type: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  size: bigint;
  used: bigint;
  rdev: [number, number];
  fsid: bigint;
  fileid: bigint;
  atime: NfsTime;
  mtime: NfsTime;
  ctime: NfsTime;
}

/** fattr3 is fixed-size: 5 words, 4 hypers (size, used, fsid, fileid), specdata3, 3 times: 84 bytes. */
export const FATTR3_BYTES = 5 * 4 + 4 * 8 + 8 + 3 * 8;

const USED_BLOCK = 4096n;
const MAX_UINT32 = 0xffff_ffff;

function timeOf(ms: number): NfsTime {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  const seconds = Math.min(Math.floor(safe / 1000), MAX_UINT32);
  return { seconds, nseconds: Math.floor((safe - seconds * 1000) * 1e6) % 1e9 };
}

/** The attributes of a tree node as an export serves it (ISSUE15: uid/gid 0, nlink 1/2, used rounded to 4 KiB, one time for all three). */
export function attributesOf(node: TreeNode, exportId: number): Fattr3 {
  const size = BigInt(node.type === 'file' ? node.size : node.type === 'symlink' ? Buffer.byteLength(node.target ?? '') : 0);
  const time = timeOf(node.mtimeMs);
  return {
    type: node.type === 'directory' ? NF3.DIR : node.type === 'symlink' ? NF3.LNK : NF3.REG,
    mode: node.mode & 0o7777,
    nlink: node.type === 'directory' ? 2 : 1,
    uid: 0,
    gid: 0,
    size,
    used: ((size + USED_BLOCK - 1n) / USED_BLOCK) * USED_BLOCK,
    rdev: [0, 0],
    fsid: BigInt(exportId),
    fileid: node.id,
    atime: time,
    mtime: time,
    ctime: time,
  };
}

function writeTime(writer: XdrWriter, time: NfsTime): void {
  writer.uint32(time.seconds).uint32(time.nseconds);
}

function readTime(reader: XdrReader): NfsTime {
  return { seconds: reader.uint32('nfstime3 seconds'), nseconds: reader.uint32('nfstime3 nseconds') };
}

export const fattr3 = {
  encode(writer: XdrWriter, value: Fattr3): XdrWriter {
    writer.uint32(value.type).uint32(value.mode).uint32(value.nlink).uint32(value.uid).uint32(value.gid);
    writer.uint64(value.size).uint64(value.used).uint32(value.rdev[0]).uint32(value.rdev[1]);
    writer.uint64(value.fsid).uint64(value.fileid);
    writeTime(writer, value.atime);
    writeTime(writer, value.mtime);
    writeTime(writer, value.ctime);
    return writer;
  },
  decode(reader: XdrReader): Fattr3 {
    return {
      type: reader.uint32('ftype3'),
      mode: reader.uint32('mode'),
      nlink: reader.uint32('nlink'),
      uid: reader.uint32('uid'),
      gid: reader.uint32('gid'),
      size: reader.uint64('size'),
      used: reader.uint64('used'),
      rdev: [reader.uint32('rdev major'), reader.uint32('rdev minor')],
      fsid: reader.uint64('fsid'),
      fileid: reader.uint64('fileid'),
      atime: readTime(reader),
      mtime: readTime(reader),
      ctime: readTime(reader),
    };
  },
  encodingLength(): number {
    return FATTR3_BYTES;
  },
};

/** RFC 1813 §2.6 post_op_attr: a boolean, then fattr3 when true. */
export const postOpAttr = {
  encode(writer: XdrWriter, value: Fattr3 | null): XdrWriter {
    writer.bool(value !== null);
    if (value) fattr3.encode(writer, value);
    return writer;
  },
  decode(reader: XdrReader): Fattr3 | null {
    return reader.optional((inner) => fattr3.decode(inner), 'post_op_attr');
  },
  encodingLength(value: Fattr3 | null): number {
    return 4 + (value ? FATTR3_BYTES : 0);
  },
};

/**
 * RFC 1813 §2.6 wcc_data with no pre-operation attributes: what every
 * refused write answers (the object did not change, so only the after).
 */
export const wccData = {
  encode(writer: XdrWriter, after: Fattr3 | null): XdrWriter {
    writer.bool(false);
    return postOpAttr.encode(writer, after);
  },
  encodingLength(after: Fattr3 | null): number {
    return 4 + postOpAttr.encodingLength(after);
  },
};

/** RFC 1813 §2.5 nfs_fh3: opaque<64>, returned as a view of the message. */
export const nfsFh3 = {
  encode(writer: XdrWriter, handle: Buffer): XdrWriter {
    return writer.opaque(handle);
  },
  decode(reader: XdrReader): Buffer {
    return reader.opaque(NFS3_FHSIZE, 'nfs_fh3');
  },
  encodingLength(handle: Buffer): number {
    return 4 + paddedLength(handle.length);
  },
};

/** RFC 1813 §3.3.3 post_op_fh3. */
export const postOpFh3 = {
  encode(writer: XdrWriter, handle: Buffer | null): XdrWriter {
    writer.bool(handle !== null);
    if (handle) nfsFh3.encode(writer, handle);
    return writer;
  },
  encodingLength(handle: Buffer | null): number {
    return 4 + (handle ? nfsFh3.encodingLength(handle) : 0);
  },
};

/** A filename3 as raw bytes (names are bytes on the wire; UTF-8 on our side). */
function readName(reader: XdrReader, what: string): Buffer {
  return reader.opaque(MAX_NAME_BYTES, what);
}

// ----- arguments (RFC 1813 §3.3) -----

export interface DirOpArgs {
  dir: Buffer;
  name: Buffer;
}

export interface AccessArgs {
  object: Buffer;
  access: number;
}

export interface ReadArgs {
  file: Buffer;
  offset: bigint;
  count: number;
}

export interface ReaddirArgs {
  dir: Buffer;
  cookie: bigint;
  cookieverf: Buffer;
  count: number;
}

export interface ReaddirplusArgs {
  dir: Buffer;
  cookie: bigint;
  cookieverf: Buffer;
  dircount: number;
  maxcount: number;
}

export const nfs3Args = {
  /** GETATTR, READLINK, FSSTAT, FSINFO, PATHCONF: just the handle (and the leading handle of every write procedure). */
  handle(reader: XdrReader): Buffer {
    return nfsFh3.decode(reader);
  },
  /** LOOKUP: diropargs3. */
  dirOp(reader: XdrReader): DirOpArgs {
    const dir = nfsFh3.decode(reader);
    return { dir, name: readName(reader, 'filename3') };
  },
  access(reader: XdrReader): AccessArgs {
    const object = nfsFh3.decode(reader);
    return { object, access: reader.uint32('access') };
  },
  read(reader: XdrReader): ReadArgs {
    const file = nfsFh3.decode(reader);
    const offset = reader.uint64('offset');
    return { file, offset, count: reader.uint32('count') };
  },
  readdir(reader: XdrReader): ReaddirArgs {
    const dir = nfsFh3.decode(reader);
    const cookie = reader.uint64('cookie');
    const cookieverf = reader.fixedOpaque(NFS3_COOKIEVERFSIZE, 'cookieverf3');
    return { dir, cookie, cookieverf, count: reader.uint32('count') };
  },
  readdirplus(reader: XdrReader): ReaddirplusArgs {
    const dir = nfsFh3.decode(reader);
    const cookie = reader.uint64('cookie');
    const cookieverf = reader.fixedOpaque(NFS3_COOKIEVERFSIZE, 'cookieverf3');
    const dircount = reader.uint32('dircount');
    return { dir, cookie, cookieverf, dircount, maxcount: reader.uint32('maxcount') };
  },
};

// ----- directory entries (RFC 1813 §3.3.16, §3.3.17) -----

/** An entry3 with its leading value_follows: fileid, name, cookie. */
export const entry3 = {
  encode(writer: XdrWriter, fileid: bigint, name: Buffer, cookie: bigint): XdrWriter {
    return writer.bool(true).uint64(fileid).opaque(name).uint64(cookie);
  },
  encodingLength(name: Buffer): number {
    return 4 + 8 + 4 + paddedLength(name.length) + 8;
  },
};

/** An entryplus3 with its leading value_follows. */
export const entryplus3 = {
  encode(writer: XdrWriter, fileid: bigint, name: Buffer, cookie: bigint, attributes: Fattr3 | null, handle: Buffer | null): XdrWriter {
    entry3.encode(writer, fileid, name, cookie);
    postOpAttr.encode(writer, attributes);
    return postOpFh3.encode(writer, handle);
  },
  encodingLength(name: Buffer, attributes: Fattr3 | null, handle: Buffer | null): number {
    return entry3.encodingLength(name) + postOpAttr.encodingLength(attributes) + postOpFh3.encodingLength(handle);
  },
  /** The part READDIRPLUS's dircount counts (RFC 1813 §3.3.17: fileid, name and cookie only). */
  dirLength(name: Buffer): number {
    return 8 + 4 + paddedLength(name.length) + 8;
  },
};
