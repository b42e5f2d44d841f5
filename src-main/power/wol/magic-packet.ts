import { normalizeMac } from '../../core/mac.js';
import type { WolPort } from '../power-contract.js';

/**
 * The Wake-on-LAN magic packet (AMD, "Magic Packet Technology", 1995): six
 * FFh bytes, then the target MAC sixteen times, optionally followed by a
 * SecureOn password of 4 or 6 bytes. Sent as the payload of a UDP datagram
 * (port 9 "discard" by convention, 7 "echo" on some NICs).
 */
export { WOL_PORTS, type WolPort } from '../power-contract.js';
export const DEFAULT_WOL_PORT: WolPort = 9;

const SYNC_LENGTH = 6;
const MAC_REPEATS = 16;
const BODY_LENGTH = SYNC_LENGTH + MAC_REPEATS * 6;

export interface MagicPacket {
  /** Lowercase colon form. */
  mac: string;
  /** SecureOn password, 4 or 6 bytes, or null. */
  password: Buffer | null;
}

/** The one error decodeMagicPacket throws. */
export class MagicPacketError extends Error {
  override name = 'MagicPacketError';
}

function macBytes(mac: string): Buffer {
  const canonical = normalizeMac(mac);
  if (!canonical) throw new MagicPacketError(`"${mac}" is not a MAC address`);
  return Buffer.from(canonical.replaceAll(':', ''), 'hex');
}

export function magicPacketLength(value: MagicPacket): number {
  return BODY_LENGTH + (value.password?.length ?? 0);
}

/** Encodes into `buf` at `offset` (or a new buffer); `encodeMagicPacket.bytes` is the length written. */
export const encodeMagicPacket = Object.assign(
  (value: MagicPacket, buf?: Buffer, offset = 0): Buffer => {
    const password = value.password;
    if (password && password.length !== 4 && password.length !== 6) throw new MagicPacketError('a SecureOn password is 4 or 6 bytes');
    const length = magicPacketLength(value);
    const target = buf ?? Buffer.alloc(length);
    if (target.length - offset < length) throw new MagicPacketError(`buffer too small: need ${length} bytes`);
    const mac = macBytes(value.mac);
    target.fill(0xff, offset, offset + SYNC_LENGTH);
    for (let i = 0; i < MAC_REPEATS; i += 1) mac.copy(target, offset + SYNC_LENGTH + i * 6);
    password?.copy(target, offset + BODY_LENGTH);
    encodeMagicPacket.bytes = length;
    return target;
  },
  { bytes: 0 },
);

/** Decodes a datagram payload; throws MagicPacketError when it is not exactly a magic packet. */
export const decodeMagicPacket = Object.assign(
  (buf: Buffer, offset = 0): MagicPacket => {
    if (!Buffer.isBuffer(buf) || offset < 0 || offset > buf.length) throw new MagicPacketError('offset outside the buffer');
    const length = buf.length - offset;
    if (length !== BODY_LENGTH && length !== BODY_LENGTH + 4 && length !== BODY_LENGTH + 6) {
      throw new MagicPacketError(`a magic packet is ${BODY_LENGTH}, ${BODY_LENGTH + 4} or ${BODY_LENGTH + 6} bytes, got ${length}`);
    }
    for (let i = 0; i < SYNC_LENGTH; i += 1) {
      if (buf[offset + i] !== 0xff) throw new MagicPacketError('the synchronisation stream is not six FFh bytes');
    }
    const mac = buf.subarray(offset + SYNC_LENGTH, offset + SYNC_LENGTH + 6);
    for (let i = 1; i < MAC_REPEATS; i += 1) {
      const at = offset + SYNC_LENGTH + i * 6;
      if (!mac.equals(buf.subarray(at, at + 6))) throw new MagicPacketError(`MAC repetition ${i + 1} differs from the first`);
    }
    decodeMagicPacket.bytes = length;
    const text = [...mac].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
    return { mac: text, password: length === BODY_LENGTH ? null : Buffer.from(buf.subarray(offset + BODY_LENGTH)) };
  },
  { bytes: 0 },
);

/**
 * Parses a SecureOn password as people write it: six hex bytes like a MAC
 * (`01:02:03:04:05:06`) or four dotted decimals like an IPv4 address
 * (`192.168.1.1`), as ether-wake accepts them. Returns null when invalid.
 */
export function parseSecureOnPassword(text: string): Buffer | null {
  const mac = normalizeMac(text);
  if (mac) return Buffer.from(mac.replaceAll(':', ''), 'hex');
  const parts = text.trim().split('.');
  if (parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) {
    return Buffer.from(parts.map(Number));
  }
  return null;
}
