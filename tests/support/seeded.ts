/**
 * A small seeded generator (mulberry32) with normal noise (Box–Muller), so every run of a test or
 * a benchmark sees the same population; and the 1–5 rating a rater would give.
 */
export function seeded(seed: number): { next: () => number; normal: () => number } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
  return { next, normal };
}

/** A rating on the 1–5 scale: rounded and clipped. */
export const clipRating = (v: number) => Math.min(5, Math.max(1, Math.round(v)));
