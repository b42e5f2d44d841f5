import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/*
 * NFS v3 file handles (ISSUE15 decisions). 24 bytes:
 *
 *   version(1)=2 | export id (u32) | node id (u64) | path tag (40 bits) | mac (48 bits)
 *
 * `path tag` = first 5 bytes of SHA-256(export id ‖ tree path): it lets a
 * handle be checked against the path it was issued for (a file replaced at
 * the same path, or an inode number reused elsewhere, goes stale). `mac` =
 * first 6 bytes of HMAC-SHA-256(handle key, the first 18 bytes): a client
 * cannot make a handle for a node it was never given, nor move a handle to
 * another export. The key is stored by the area, so handles outlive restarts.
 *
 * Why 24 bytes and not more: a READDIRPLUS entry carries a handle, and the
 * client's count bounds a reply, so every byte of handle is a byte fewer of
 * entries per round trip (8 fewer bytes fit a 100-file folder in two 8 KiB
 * replies instead of three). 48 bits of mac still cost a forger ~2^47 tries
 * over the network per handle; 40 bits of tag make two paths of one inode
 * number agree once in 2^40.
 *
 * Version 1 (32 bytes: 3 reserved bytes, 64-bit tag and mac) is retired: such
 * a handle answers NFS3ERR_BADHANDLE, and a client mounts again.
 */

export const HANDLE_BYTES = 24;
export const HANDLE_VERSION = 2;
/** The handle key is 32 random bytes. */
export const HANDLE_KEY_BYTES = 32;
const TAG_OFFSET = 13;
const TAG_BYTES = 5;
const SIGNED_BYTES = 18;
const MAC_BYTES = 6;

export interface HandleFields {
  exportId: number;
  nodeId: bigint;
  pathTag: bigint;
}

/** First 5 bytes of SHA-256(export id as u32 ‖ UTF-8 tree path), as an integer below 2^40. */
export function pathTagOf(exportId: number, treePath: string): bigint {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(exportId >>> 0);
  return BigInt(createHash('sha256').update(prefix).update(treePath, 'utf8').digest().readUIntBE(0, TAG_BYTES));
}

/** The path tag carried by a handle of this layout (the handle's length and mac are not checked). */
export function handlePathTag(handle: Buffer): bigint {
  return BigInt(handle.readUIntBE(TAG_OFFSET, TAG_BYTES));
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** Most handles each cache of HandleCodec keeps before it starts over (24 bytes + a key each: a few tens of MB at most). */
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
    handle.writeUInt32BE(exportId, 1);
    // Node ids are inode numbers or byte positions: non-negative and below 2^64; mask defensively rather than throw mid-listing.
    handle.writeBigUInt64BE(nodeId & MAX_UINT64, 5);
    handle.writeUIntBE(Number(pathTagOf(exportId, treePath)), TAG_OFFSET, TAG_BYTES);
    this.mac(handle.subarray(0, SIGNED_BYTES)).copy(handle, SIGNED_BYTES);
    if (this.encoded.size >= HANDLE_CACHE_ENTRIES) this.encoded.clear();
    this.encoded.set(cacheKey, Buffer.from(handle));
    return handle;
  }

  /** The fields of a handle we issued; null when its length, version, reserved bytes or mac are wrong (NFS3ERR_BADHANDLE). */
  verify(handle: Buffer): HandleFields | null {
    if (handle.length !== HANDLE_BYTES || handle[0] !== HANDLE_VERSION) return null;
    // Keyed by the whole handle, mac included: only a handle whose mac checked out is ever in the map.
    const cacheKey = handle.toString('latin1');
    const cached = this.verified.get(cacheKey);
    if (cached) return { ...cached };
    const expected = this.mac(handle.subarray(0, SIGNED_BYTES));
    if (!timingSafeEqual(expected, handle.subarray(SIGNED_BYTES, HANDLE_BYTES))) return null;
    const fields = {
      exportId: handle.readUInt32BE(1),
      nodeId: handle.readBigUInt64BE(5),
      pathTag: handlePathTag(handle),
    };
    if (this.verified.size >= HANDLE_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(cacheKey, fields);
    return { ...fields };
  }
}
