/**
 * A seeded pseudo-random source (mulberry32), so the demo history is the same for the same
 * seed and start time: tests can hold its figures to tolerances, and two fresh starts look alike.
 */
export type Random = ReturnType<typeof createRandom>;

export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = {
    next,
    chance: (p: number) => next() < p,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    between: (min: number, max: number) => min + next() * (max - min),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** One item, each as likely as its weight. */
    weighted: <T>(entries: readonly (readonly [T, number])[]): T => {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, weight] of entries) {
        r -= weight;
        if (r < 0) return value;
      }
      return entries[entries.length - 1][0];
    },
    /** Standard normal (Box–Muller). */
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    /** Log-normal around a median: most values near it, a long tail above (reaction times). */
    logNormal: (median: number, sigma: number) => median * Math.exp(sigma * random.normal()),
    /** `length` characters of `alphabet`. */
    chars: (alphabet: string, length: number) => {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
  };
  return random;
}

/**
 * A steady rate for rare outcomes (bounces, complaints): over n draws about n × rate hits, at
 * irregular intervals, so a small sample shows the rate it was given instead of a lucky streak.
 */
export function createQuota(random: Random) {
  let acc = random.next();
  let threshold = 0.5 + random.next();
  return (rate: number): boolean => {
    acc += rate;
    if (acc < threshold) return false;
    acc -= threshold;
    threshold = 0.5 + random.next();
    return true;
  };
}
export type Quota = ReturnType<typeof createQuota>;
