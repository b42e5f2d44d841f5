import { corrupt, u32le, u8 } from './iso-fields.js';
import { MAX_CONTINUATION_BYTES, MAX_CONTINUATIONS } from './iso-limits.js';
import type { IsoSource } from './iso-source.js';

/*
 * The System Use Sharing Protocol (SUSP 1.12, IEEE P1281): entries in a
 * directory record's System Use area, each "signature (2) · length (1) ·
 * version (1) · data". CE (§5.1) continues the area in another block, ST
 * (§5.4) ends it, SP (§5.3) in the root's "." record says SUSP is in use and
 * how many bytes to skip in every area, ER (§5.5) names the extensions (Rock
 * Ridge: RRIP_1991A, IEEE_P1282, IEEE_1282). An entry that does not fit ends
 * the area (as Linux does); continuation areas are bounded in count and size
 * and must lie inside the file.
 */

export interface SuspEntry {
  signature: string;
  version: number;
  /** The whole entry, header included (field offsets below count from its start). */
  bytes: Buffer;
}

export interface SuspArea {
  source: IsoSource;
  blockSize: number;
  treePath: string;
}

const HEADER_BYTES = 4;

function parseArea(area: Buffer, entries: SuspEntry[]): { block: number; offset: number; length: number } | null {
  let continuation: { block: number; offset: number; length: number } | null = null;
  let at = 0;
  while (at + HEADER_BYTES <= area.length) {
    const signature = area.toString('latin1', at, at + 2);
    const length = area.readUInt8(at + 2);
    if (length < HEADER_BYTES || at + length > area.length) break;
    const bytes = area.subarray(at, at + length);
    at += length;
    if (signature === 'ST') break;
    if (signature === 'CE') {
      if (length < 28) throw corrupt(`SUSP CE entry of ${length} bytes (28 expected)`);
      continuation = { block: u32le(bytes, 4, 'CE block'), offset: u32le(bytes, 12, 'CE offset'), length: u32le(bytes, 20, 'CE length') };
      continue;
    }
    if (signature === 'PD') continue; // padding (§5.2)
    entries.push({ signature, version: u8(bytes, 3, 'SUSP version'), bytes });
  }
  return continuation;
}

/**
 * Every SUSP entry of a System Use area and its continuation areas, in
 * order. `skip` is the SP entry's LEN_SKP (bytes at the start of the area
 * belonging to another protocol).
 */
export async function suspEntries(systemUse: Buffer, skip: number, context: SuspArea): Promise<SuspEntry[]> {
  const entries: SuspEntry[] = [];
  let area = systemUse.subarray(Math.min(skip, systemUse.length));
  for (let hops = 0; ; hops += 1) {
    const next = parseArea(area, entries);
    if (!next) return entries;
    if (hops >= MAX_CONTINUATIONS) throw corrupt(`more than ${MAX_CONTINUATIONS} SUSP continuation areas`, context.treePath);
    if (next.length > MAX_CONTINUATION_BYTES || next.offset >= context.blockSize) {
      throw corrupt(`SUSP continuation area of ${next.length} bytes at offset ${next.offset} does not fit a ${context.blockSize}-byte block`, context.treePath);
    }
    area = await context.source.read(next.block * context.blockSize + next.offset, next.length, 'SUSP continuation area', context.treePath);
  }
}

/** SP (SUSP §5.3): check bytes 0xBE 0xEF; the skip length. Null when the entry is not a valid SP. */
export function sharingProtocolSkip(entry: SuspEntry | undefined): number | null {
  if (!entry || entry.signature !== 'SP' || entry.bytes.length < 7) return null;
  if (entry.bytes[4] !== 0xbe || entry.bytes[5] !== 0xef) return null;
  return entry.bytes.readUInt8(6);
}

/** ER (SUSP §5.5): the extension identifier. */
export function extensionIdentifier(entry: SuspEntry): string | null {
  if (entry.signature !== 'ER' || entry.bytes.length < 8) return null;
  const idLength = entry.bytes.readUInt8(4);
  if (8 + idLength > entry.bytes.length) return null;
  return entry.bytes.toString('latin1', 8, 8 + idLength);
}
