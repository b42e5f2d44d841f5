import type { TftpOption } from './tftp-codec.js';
import {
  DEFAULT_BLKSIZE,
  MAX_BLKSIZE,
  MAX_TIMEOUT_S,
  MAX_WINDOWSIZE,
  MIN_BLKSIZE,
  MIN_TIMEOUT_S,
  MIN_WINDOWSIZE,
} from './tftp-constants.js';

/** Server-side caps on what a client may negotiate. */
export interface NegotiationLimits {
  /** Largest blksize granted (≤ 65464). */
  maxBlksize: number;
  /** Largest windowsize granted (≤ 64). */
  maxWindowsize: number;
  /** Retransmission timeout when the client does not ask for one. */
  defaultTimeoutMs: number;
}

/** The transfer parameters after negotiation and the OACK to send (empty: send no OACK). */
export interface Negotiated {
  blksize: number;
  windowsize: number;
  timeoutMs: number;
  /** The tsize the client asked for, as echoed; null when not asked. */
  tsize: number | null;
  oack: TftpOption[];
}

/**
 * Most bytes one window may carry (RFC 7440 lets the server grant a smaller
 * windowsize than asked). A window arrives as one burst: beyond about 96 KiB
 * it overflowed the receive buffer of a Linux client on loopback (the
 * default 208 KiB counts kernel overhead per datagram), its tail was lost
 * every time, and each window then cost a full timeout. 1468 × 64 fits.
 */
export const WINDOW_BYTES_BUDGET = 96 * 1024;

function parseDecimal(value: string): number | null {
  // Digits only: "1e3", "0x10", " 5" and signs are not numbers on this wire.
  if (!/^\d{1,10}$/.test(value)) return null;
  return Number(value);
}

/**
 * Negotiates the options of a read request (RFC 2347): unknown options and
 * invalid values are ignored (left out of the OACK, which the RFC allows);
 * a name sent twice counts once, the first time.
 *
 * - blksize (RFC 2348): 8..65464; a larger request is granted at the cap.
 * - tsize (RFC 2349): answered with the file size when it is known.
 * - timeout (RFC 2349): 1..255 s, echoed unchanged (the RFC forbids changing it).
 * - windowsize (RFC 7440): ≥ 1; granted up to the cap and to WINDOW_BYTES_BUDGET / blksize.
 */
export function negotiate(requested: readonly TftpOption[], fileSize: number | null, limits: NegotiationLimits): Negotiated {
  const result: Negotiated = { blksize: DEFAULT_BLKSIZE, windowsize: 1, timeoutMs: limits.defaultTimeoutMs, tsize: null, oack: [] };
  const seen = new Set<string>();
  for (const option of requested) {
    const name = option.name.toLowerCase();
    if (seen.has(name)) continue;
    seen.add(name);
    const value = parseDecimal(option.value);
    switch (name) {
      case 'blksize': {
        if (value === null || value < MIN_BLKSIZE) break;
        result.blksize = Math.min(value, limits.maxBlksize, MAX_BLKSIZE);
        result.oack.push({ name, value: String(result.blksize) });
        break;
      }
      case 'tsize': {
        // In a read request the client's value carries nothing (RFC 2349 says "0"; atftp sends "enable"): answer any.
        if (fileSize === null) break;
        result.tsize = fileSize;
        result.oack.push({ name, value: String(fileSize) });
        break;
      }
      case 'timeout': {
        if (value === null || value < MIN_TIMEOUT_S || value > MAX_TIMEOUT_S) break;
        result.timeoutMs = value * 1000;
        result.oack.push({ name, value: String(value) });
        break;
      }
      case 'windowsize': {
        if (value === null || value < MIN_WINDOWSIZE) break;
        result.windowsize = Math.min(value, limits.maxWindowsize, MAX_WINDOWSIZE);
        result.oack.push({ name, value: '' });
        break;
      }
      default:
        break;
    }
  }
  // The window is sized after the block size, whatever order the client sent them in.
  result.windowsize = Math.max(MIN_WINDOWSIZE, Math.min(result.windowsize, Math.floor(WINDOW_BYTES_BUDGET / result.blksize)));
  for (const option of result.oack) if (option.name === 'windowsize') option.value = String(result.windowsize);
  return result;
}
