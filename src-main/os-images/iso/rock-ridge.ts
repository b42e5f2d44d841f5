import { decDateTime, recordDateTime } from './iso-fields.js';
import { MAX_RR_NAME, MAX_RR_TARGET } from './iso-limits.js';
import type { SuspEntry } from './susp.js';

/*
 * Rock Ridge (RRIP 1.12, IEEE P1282) entries of one directory record:
 * PX (§4.1.1: mode, links, uid, gid, serial number), NM (§4.1.4: the name,
 * in pieces with CONTINUE), SL (§4.1.3: a symlink's target as components
 * with CURRENT/PARENT/ROOT flags, in pieces), TF (§4.1.6: time stamps),
 * CL/PL/RE (§4.1.5: a directory relocated to keep the ISO 9660 tree 8 levels
 * deep), and the ones we cannot read (ZF: zisofs compression, SF: sparse).
 * An entry too short for its fields is ignored, never read past.
 */

/** Signatures that only Rock Ridge writes (RR is RRIP 1.09's flag entry). */
export const RRIP_SIGNATURES = new Set(['PX', 'PN', 'SL', 'NM', 'CL', 'PL', 'RE', 'TF', 'SF', 'RR']);
/** ER identifiers of Rock Ridge (RRIP 1.10, 1.12 draft and final). */
export const RRIP_IDENTIFIERS = new Set(['RRIP_1991A', 'IEEE_P1282', 'IEEE_1282']);

/** POSIX file type bits of PX mode (st_mode). */
export const S_IFMT = 0o170000;
export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;
export const S_IFLNK = 0o120000;

export interface RockRidgeAttributes {
  name: string | null;
  /** PX st_mode (type and permission bits). */
  mode: number | null;
  /** PX file serial number (RRIP 1.12; absent in 1.10's 36-byte PX). */
  inode: number | null;
  target: string | null;
  modifiedAt: number | null;
  /** CL: the relocated directory's logical block. */
  childLink: number | null;
  /** RE: this is a relocated directory; it shows at its CL placeholder, not here. */
  relocated: boolean;
  /** Why the file's bytes cannot be read as recorded (ZF, SF), or null. */
  unreadable: string | null;
}

const NM_FLAGS = { continue: 0x01, current: 0x02, parent: 0x04 } as const;
const SL_FLAGS = { continue: 0x01, current: 0x02, parent: 0x04, root: 0x08, volumeRoot: 0x10, host: 0x20 } as const;
const TF_FLAGS = { creation: 0x01, modify: 0x02, longForm: 0x80 } as const;

function slTarget(entries: readonly SuspEntry[]): string | null {
  const parts: string[] = [];
  let absolute = false;
  let continuing = false;
  let seen = false;
  for (const entry of entries) {
    if (entry.signature !== 'SL' || entry.bytes.length < 5) continue;
    seen = true;
    let at = 5;
    while (at + 2 <= entry.bytes.length) {
      const flags = entry.bytes.readUInt8(at);
      const length = entry.bytes.readUInt8(at + 1);
      if (at + 2 + length > entry.bytes.length) break;
      const content = entry.bytes.toString('utf8', at + 2, at + 2 + length);
      at += 2 + length;
      if (flags & (SL_FLAGS.root | SL_FLAGS.volumeRoot | SL_FLAGS.host)) {
        absolute = true;
        parts.length = 0;
        continuing = false;
        continue;
      }
      const text = flags & SL_FLAGS.current ? '.' : flags & SL_FLAGS.parent ? '..' : content;
      if (continuing && parts.length > 0) parts[parts.length - 1] += text;
      else parts.push(text);
      continuing = (flags & SL_FLAGS.continue) !== 0;
    }
  }
  if (!seen) return null;
  const target = (absolute ? '/' : '') + parts.join('/');
  return target.slice(0, MAX_RR_TARGET);
}

function nmName(entries: readonly SuspEntry[]): string | null {
  let name: string | null = null;
  for (const entry of entries) {
    if (entry.signature !== 'NM' || entry.bytes.length < 5) continue;
    const flags = entry.bytes.readUInt8(4);
    // CURRENT/PARENT name '.' and '..', which are not entries here.
    if (flags & (NM_FLAGS.current | NM_FLAGS.parent)) continue;
    name = (name ?? '') + entry.bytes.toString('utf8', 5);
    if (name.length > MAX_RR_NAME) return name.slice(0, MAX_RR_NAME);
  }
  return name;
}

function tfModified(entry: SuspEntry): number | null {
  if (entry.bytes.length < 5) return null;
  const flags = entry.bytes.readUInt8(4);
  if (!(flags & TF_FLAGS.modify)) return null;
  const size = flags & TF_FLAGS.longForm ? 17 : 7;
  // Stamps follow in flag-bit order; only CREATION comes before MODIFY.
  const offset = 5 + (flags & TF_FLAGS.creation ? size : 0);
  if (offset + size > entry.bytes.length) return null;
  return size === 17 ? decDateTime(entry.bytes, offset, 'TF modify') : recordDateTime(entry.bytes, offset, 'TF modify');
}

export function rockRidgeAttributes(entries: readonly SuspEntry[]): RockRidgeAttributes {
  const attributes: RockRidgeAttributes = {
    name: nmName(entries),
    mode: null,
    inode: null,
    target: slTarget(entries),
    modifiedAt: null,
    childLink: null,
    relocated: false,
    unreadable: null,
  };
  for (const entry of entries) {
    const { bytes } = entry;
    switch (entry.signature) {
      case 'PX':
        if (bytes.length >= 36) attributes.mode = bytes.readUInt32LE(4);
        if (bytes.length >= 44) attributes.inode = bytes.readUInt32LE(36);
        break;
      case 'TF':
        attributes.modifiedAt = tfModified(entry) ?? attributes.modifiedAt;
        break;
      case 'CL':
        if (bytes.length >= 12) attributes.childLink = bytes.readUInt32LE(4);
        break;
      case 'RE':
        attributes.relocated = true;
        break;
      case 'ZF':
        attributes.unreadable = 'the file is zisofs-compressed (Rock Ridge ZF), which is not supported';
        break;
      case 'SF':
        attributes.unreadable = 'the file is recorded sparse (Rock Ridge SF), which is not supported';
        break;
      default:
        break;
    }
  }
  return attributes;
}
