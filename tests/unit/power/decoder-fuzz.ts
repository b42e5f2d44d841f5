import { IpmiDecodeError } from '../../../src-main/power/ipmi/codec.js';
import { prng } from '../../helpers/prng.js';


export function randomBytes(random: () => number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) buf[i] = Math.floor(random() * 256);
  return buf;
}

/** Flips, truncates, extends or overwrites a few bytes of a valid encoding. */
export function mutate(random: () => number, valid: Buffer): Buffer {
  const choice = Math.floor(random() * 4);
  if (choice === 0) return Buffer.from(valid.subarray(0, Math.floor(random() * valid.length)));
  if (choice === 1) return Buffer.concat([valid, randomBytes(random, 1 + Math.floor(random() * 40))]);
  const out = Buffer.from(valid);
  const flips = 1 + Math.floor(random() * 4);
  for (let i = 0; i < flips && out.length > 0; i += 1) {
    const at = Math.floor(random() * out.length);
    out[at] = choice === 2 ? out[at]! ^ (1 << Math.floor(random() * 8)) : Math.floor(random() * 256);
  }
  return out;
}

/**
 * Feeds random and mutated inputs to a decoder: it must return or throw
 * `allowed` (the one stable error), never anything else. Bounded.
 */
export function fuzzDecoder(
  name: string,
  decode: (buf: Buffer) => unknown,
  seeds: readonly Buffer[],
  allowed: new (...args: never[]) => Error = IpmiDecodeError,
  iterations = 2_000,
): { decoded: number; rejected: number } {
  const random = prng(name.split('').reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7));
  let decoded = 0;
  let rejected = 0;
  for (let i = 0; i < iterations; i += 1) {
    const seed = seeds[i % Math.max(1, seeds.length)];
    const input = seed && i % 3 !== 0 ? mutate(random, seed) : randomBytes(random, Math.floor(random() * 96));
    try {
      decode(input);
      decoded += 1;
    } catch (err) {
      if (!(err instanceof allowed)) throw new Error(`${name}: input ${input.toString('hex')} threw ${(err as Error).name}: ${(err as Error).message}`);
      rejected += 1;
    }
  }
  return { decoded, rejected };
}
