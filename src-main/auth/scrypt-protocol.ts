/** Messages between the scrypt workers (main thread) and one scrypt worker thread (its source is in scrypt-workers.ts). */

export interface ScryptJob {
  id: number;
  password: string;
  /** A copy of just the salt's bytes: cloning a pooled Buffer would copy its whole 8 KiB pool. */
  salt: Uint8Array;
  keyLength: number;
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

export type ScryptReply = { id: number; key: Uint8Array; error?: undefined } | { id: number; key?: undefined; error: string };
