// One seeded random number generator for everything that must draw the same numbers on every
// machine: the noisy oracle's damage, bootstrap resampling, the step layer's tie-break variants.

/** mulberry32: tiny, fast, and identical on every platform; numbers in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
