import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/*
 * NFS v3 file handles (ISSUE15 decisions). 32 bytes:
 *
 *   version(1)=1 | reserved(3)=0 | export id (u32) | node id (u64) | path tag (u64) | mac (u64)
 *
 * `path tag` = first 8 bytes of SHA-256(export id ‖ tree path): it lets a
 * handle be checked against the path it was issued for (a file replaced at
 * the same path, or an inode number reused elsewhere, goes stale). `mac` =
 * first 8 bytes of HMAC-SHA-256(handle key, the first 24 bytes): a client
 * cannot make a handle for a node it was never given, nor move a handle to
 * another export. The key is stored by the area, so handles outlive restarts.
 */

export const HANDLE_BYTES = 32;
export const HANDLE_VERSION = 1;
/** The handle key is 32 random bytes. */
export const HANDLE_KEY_BYTES = 32;
const SIGNED_BYTES = 24;
const MAC_BYTES = 8;

export interface HandleFields {
  exportId: number;
  nodeId: bigint;
  pathTag: bigint;
}

/** First 8 bytes of SHA-256(export id as u32 ‖ UTF-8 tree path), as a u64. */
export function pathTagOf(exportId: number, treePath: string): bigint {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(exportId >>> 0);
  return createHash('sha256').update(prefix).update(treePath, 'utf8').digest().readBigUInt64BE(0);
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** Most handles each cache of HandleCodec keeps before it starts over (32 bytes + a key each: a few tens of MB at most). */
const HANDLE_CACHE_ENTRIES = 200_000;

/**
 * HandleCodec caches both directions: a handle costs three SHA-256 runs (the
 * path tag and the HMAC's two), which was the largest share of a READDIRPLUS
 * of 100 entries, and every call verifies one. The caches hold only what the
 * codec itself computed from the key, so they answer exactly what computing
 * again would.
 */
export class HandleCodec {
  private readonly key: Buffer;
  private readonly encoded = new Map<string, Buffer>();
  private readonly verified = new Map<string, HandleFields>();

  constructor(key: Buffer) {
    if (key.length < 16) throw new RangeError(`NFS handle key: ${key.length} bytes is too short (expected ${HANDLE_KEY_BYTES})`);
    this.key = Buffer.from(key);
  }

  private mac(signed: Buffer): Buffer {
    return createHmac('sha256', this.key).update(signed).digest().subarray(0, MAC_BYTES);
  }

  /** The handle of `nodeId` at `treePath` in export `exportId`. */
  encode(exportId: number, nodeId: bigint, treePath: string): Buffer {
    if (!Number.isInteger(exportId) || exportId < 0 || exportId > 0xffff_ffff) throw new RangeError(`NFS handle: export id ${exportId} out of range`);
    const cacheKey = `${exportId}/${nodeId}/${treePath}`;
    const cached = this.encoded.get(cacheKey);
    if (cached) return Buffer.from(cached);
    const handle = Buffer.alloc(HANDLE_BYTES);
    handle.writeUInt8(HANDLE_VERSION, 0);
    handle.writeUInt32BE(exportId, 4);
    // Node ids are inode numbers or byte positions: non-negative and below 2^64; mask defensively rather than throw mid-listing.
    handle.writeBigUInt64BE(nodeId & MAX_UINT64, 8);
    handle.writeBigUInt64BE(pathTagOf(exportId, treePath), 16);
    this.mac(handle.subarray(0, SIGNED_BYTES)).copy(handle, SIGNED_BYTES);
    if (this.encoded.size >= HANDLE_CACHE_ENTRIES) this.encoded.clear();
    this.encoded.set(cacheKey, Buffer.from(handle));
    return handle;
  }

  /** The fields of a handle we issued; null when its length, version, reserved bytes or mac are wrong (NFS3ERR_BADHANDLE). */
  verify(handle: Buffer): HandleFields | null {
    if (handle.length !== HANDLE_BYTES) return null;
    if (handle[0] !== HANDLE_VERSION || handle[1] !== 0 || handle[2] !== 0 || handle[3] !== 0) return null;
    // Keyed by the whole handle, mac included: only a handle whose mac checked out is ever in the map.
    const cacheKey = handle.toString('latin1');
    const cached = this.verified.get(cacheKey);
    if (cached) return { ...cached };
    const expected = this.mac(handle.subarray(0, SIGNED_BYTES));
    if (!timingSafeEqual(expected, handle.subarray(SIGNED_BYTES, HANDLE_BYTES))) return null;
    const fields = {
      exportId: handle.readUInt32BE(4),
      nodeId: handle.readBigUInt64BE(8),
      pathTag: handle.readBigUInt64BE(16),
    };
    if (this.verified.size >= HANDLE_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(cacheKey, fields);
    return { ...fields };
  }
}
