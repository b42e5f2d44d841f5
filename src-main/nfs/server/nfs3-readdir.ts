import type { TreeNode } from '../../core/read-only-tree.js';
import { attributesOf, entry3, entryplus3, postOpAttr, type Fattr3 } from './nfs3-codec.js';
import { NFS3, NFS3_COOKIEVERFSIZE } from './nfs3-constants.js';
import { XdrWriter } from './xdr.js';

/*
 * READDIR and READDIRPLUS replies (RFC 1813 §3.3.16, §3.3.17). A cookie is
 * the 1-based position of an entry in the tree's listing (0 = start); the
 * verifier is the directory's mtime. A page holds the entries after the
 * cookie while the whole reply fits the client's count (READDIRPLUS: and the
 * directory part fits dircount), sized with the codec's encodingLength
 * before anything is written.
 */

const ZERO_VERF = Buffer.alloc(NFS3_COOKIEVERFSIZE);

/** The cookie verifier of a directory: its mtime in whole milliseconds, big-endian (ISSUE15: derived from the mtime). */
export function cookieVerifier(dir: TreeNode): Buffer {
  const verf = Buffer.alloc(NFS3_COOKIEVERFSIZE);
  const ms = Number.isFinite(dir.mtimeMs) && dir.mtimeMs > 0 ? BigInt(Math.floor(dir.mtimeMs)) : 0n;
  verf.writeBigUInt64BE(ms);
  return verf;
}

/**
 * Whether a client's cookie and verifier still name a place in this listing:
 * not past its end, and (for a non-zero cookie) a verifier that is the
 * directory's current one or all zeros (some clients send zeros throughout).
 * Otherwise NFS3ERR_BAD_COOKIE.
 */
export function cookieValid(cookie: bigint, verifier: Buffer, current: Buffer, entries: number): boolean {
  if (cookie > BigInt(entries)) return false;
  return cookie === 0n || verifier.equals(ZERO_VERF) || verifier.equals(current);
}

export interface DirectoryPage {
  entries: readonly TreeNode[];
  /** Index of the first entry to send (= the cookie). */
  start: number;
  verf: Buffer;
  /** The directory's attributes. */
  attributes: Fattr3;
  exportId: number;
  /** Most bytes of the whole reply (status included). */
  budget: number;
  /** READDIRPLUS: the dircount bound and the handle maker; null for READDIR. */
  plus: { dircount: number; handleFor: (node: TreeNode) => Buffer } | null;
}

/** The resok reply, or null when not even one entry fits (NFS3ERR_TOOSMALL). */
export function encodeDirectoryPage(page: DirectoryPage): XdrWriter | null {
  const { entries, start, budget, plus } = page;
  // status, post_op_attr, cookieverf, the list's closing "no more" and eof.
  let used = 4 + postOpAttr.encodingLength(page.attributes) + NFS3_COOKIEVERFSIZE + 4 + 4;
  let dirUsed = 0;
  const writer = new XdrWriter(Math.min(budget, 64 * 1024)).uint32(NFS3.OK);
  postOpAttr.encode(writer, page.attributes);
  writer.fixedOpaque(page.verf);
  let position = start;
  for (; position < entries.length; position += 1) {
    const node = entries[position];
    if (!node) break;
    const name = Buffer.from(node.name, 'utf8');
    const cookie = BigInt(position + 1);
    if (!plus) {
      const length = entry3.encodingLength(name);
      if (used + length > budget) break;
      used += length;
      entry3.encode(writer, node.id, name, cookie);
      continue;
    }
    const attributes = attributesOf(node, page.exportId);
    const handle = plus.handleFor(node);
    const length = entryplus3.encodingLength(name, attributes, handle);
    const dirLength = entryplus3.dirLength(name);
    // dircount bounds the directory part only (RFC 1813 §3.3.17); the first entry always goes if the whole reply allows it.
    if (used + length > budget || (position > start && dirUsed + dirLength > plus.dircount)) break;
    used += length;
    dirUsed += dirLength;
    entryplus3.encode(writer, node.id, name, cookie, attributes, handle);
  }
  if (position === start && position < entries.length) return null;
  return writer.bool(false).bool(position >= entries.length);
}
