/**
 * mulberry32: a small seeded PRNG, the same sequence for the same seed on
 * every machine, so a failing fuzz round can be replayed from its seed. The
 * one generator every fuzz test draws from.
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
