import { ServiceError } from "./errors";

/**
 * Token bucket per API key. Counters live in memory on purpose: they protect this
 * process, and losing them on restart loses nothing a client relies on.
 */
export function createRateLimiter(perSecond: number, burst = perSecond * 2) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return function take(key: string, now = Date.now()) {
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) {
      buckets.set(key, bucket);
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      throw new ServiceError(429, "rate_limited", `Too many requests: this key may make ${perSecond} requests per second`, null, {
        "Retry-After": String(retryAfter),
      });
    }
    bucket.tokens -= 1;
    buckets.set(key, bucket);
  };
}
