import { checkCount } from './check-count.js';

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a seeded PRNG for resampling, so the same
 * seed gives the same interval on every machine. Not for anything secret. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  checkCount('seed', seed);
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
