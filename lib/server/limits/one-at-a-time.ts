import "server-only";
import { AppError } from "@/lib/errors";

/**
 * One piece of work of a kind at a time per user: a second one while the first runs is
 * answered at once with a 429 (and Retry-After) rather than queued, so one user cannot hold
 * more than one share of a bounded resource (a worker, outbound connections, a file's memory).
 * Per dashboard process, which is where the work happens. The sets live on globalThis: Next
 * may load this module in more than one bundle, and they must share them.
 */
export type OneAtATime = <T>(userId: string, work: () => Promise<T>) => Promise<T>;

export function oneAtATime(kind: string, refusal: () => AppError): OneAtATime {
  const key = Symbol.for(`mail-dashboard.one-at-a-time.${kind}`);
  const holder = globalThis as { [key: symbol]: Set<string> | undefined };
  return async (userId, work) => {
    const running = (holder[key] ??= new Set());
    if (running.has(userId)) throw refusal();
    running.add(userId);
    try {
      return await work();
    } finally {
      running.delete(userId);
    }
  };
}

/** The 429 of a refused second piece of work: `retryAfterS` becomes the Retry-After header. */
export function busyError(code: string, message: string, retryAfterS: number): AppError {
  const error = new AppError(429, code, message);
  error.retryAfterMs = retryAfterS * 1000;
  return error;
}
