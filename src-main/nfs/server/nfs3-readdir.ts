import type { TreeNode } from '../../core/read-only-tree.js';
import { attributesOf, entry3, entryplus3, postOpAttr, type Fattr3 } from './nfs3-codec.js';
import { NFS3, NFS3_COOKIEVERFSIZE } from './nfs3-constants.js';
import { paddedLength, XdrWriter } from './xdr.js';

/*
 * READDIR and READDIRPLUS replies (RFC 1813 §3.3.16, §3.3.17). A cookie is
 * the 1-based position of an entry in the tree's listing (0 = start); the
 * verifier is the directory's mtime. A page holds the entries after the
 * cookie while the whole reply fits the client's count (READDIRPLUS: and the
 * directory part fits dircount).
 *
 * An entry's bytes depend only on the listing it is in (its cookie is its
 * position), so they are encoded once per listing (EncodedEntries) and a
 * client paging through a directory, or walking the tree again while the
 * listing is cached, gets copies of the same bytes: a READDIRPLUS entry
 * costs its attributes, a handle (two hashes) and the encoding only once.
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

/** The encoded entries of one listing in one export, by position; filled as pages need them. */
export class EncodedEntries {
  readonly plain: (Buffer | undefined)[] = [];
  readonly plus: (Buffer | undefined)[] = [];
}

/** The bytes of an entryplus3 that READDIRPLUS's dircount counts (RFC 1813 §3.3.17: fileid, name and cookie), read back from the encoded entry. */
function plusDirLength(encoded: Buffer): number {
  // value_follows (4), fileid (8), then the name's length.
  return 8 + 4 + paddedLength(encoded.readUInt32BE(12)) + 8;
}

function encodePlain(node: TreeNode, position: number): Buffer {
  const name = Buffer.from(node.name, 'utf8');
  const writer = new XdrWriter(entry3.encodingLength(name));
  return entry3.encode(writer, node.id, name, BigInt(position + 1)).toBuffer();
}

function encodePlus(node: TreeNode, position: number, exportId: number, handleFor: (node: TreeNode) => Buffer): Buffer {
  const name = Buffer.from(node.name, 'utf8');
  const attributes = attributesOf(node, exportId);
  const handle = handleFor(node);
  const writer = new XdrWriter(entryplus3.encodingLength(name, attributes, handle));
  return entryplus3.encode(writer, node.id, name, BigInt(position + 1), attributes, handle).toBuffer();
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
  /** The listing's entries encoded so far (kept with the listing); a fresh one encodes everything. */
  encoded?: EncodedEntries;
}

/** The resok reply, or null when not even one entry fits (NFS3ERR_TOOSMALL). */
export function encodeDirectoryPage(page: DirectoryPage): XdrWriter | null {
  const { entries, start, budget, plus } = page;
  const encoded = page.encoded ?? new EncodedEntries();
  // status, post_op_attr, cookieverf, the list's closing "no more" and eof.
  let used = 4 + postOpAttr.encodingLength(page.attributes) + NFS3_COOKIEVERFSIZE + 4 + 4;
  let dirUsed = 0;
  const chosen: Buffer[] = [];
  let position = start;
  for (; position < entries.length; position += 1) {
    const node = entries[position];
    if (!node) break;
    if (!plus) {
      const bytes = (encoded.plain[position] ??= encodePlain(node, position));
      if (used + bytes.length > budget) break;
      used += bytes.length;
      chosen.push(bytes);
      continue;
    }
    const bytes = (encoded.plus[position] ??= encodePlus(node, position, page.exportId, plus.handleFor));
    const dirLength = plusDirLength(bytes);
    // dircount bounds the directory part only (RFC 1813 §3.3.17); the first entry always goes if the whole reply allows it.
    if (used + bytes.length > budget || (position > start && dirUsed + dirLength > plus.dircount)) break;
    used += bytes.length;
    dirUsed += dirLength;
    chosen.push(bytes);
  }
  if (position === start && position < entries.length) return null;
  // Sized exactly: one buffer per reply, not the client's whole count.
  const writer = new XdrWriter(used).uint32(NFS3.OK);
  postOpAttr.encode(writer, page.attributes);
  writer.fixedOpaque(page.verf);
  for (const bytes of chosen) writer.raw(bytes);
  return writer.bool(false).bool(position >= entries.length);
}
