import "server-only";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/contract/http/read-body";

/**
 * The least rate a request body must arrive at once it has started: each window, at least
 * `minRate` bytes a second of it, or the rest of it. A sender that trickles bytes would
 * otherwise keep what the dashboard holds for its body (lib/server/http/inflight-budget.ts), and its
 * socket, for as long as it likes. Used on every request body before Next
 * (lib/server/http/request-body-limits.ts, windows of REQUEST_BODY_WINDOW_MS) and on the ingest's
 * deliveries (lib/server/event-stream/delivery-body.ts, windows of a second), with the one rate
 * REQUEST_BODY_MIN_RATE.
 */
export type ArrivalRate = { minRate: number; windowMs: number };

/**
 * How much of the body has come so far, and whether the sender owes nothing right now: the
 * body has all come, or what came still waits for the dashboard to read it.
 */
export type Arrival = { arrived(): number; owesNothing(): boolean };

export function bodyTooSlow({ minRate, windowMs }: ArrivalRate): AppError {
  return new AppError(
    408,
    "request_timeout",
    `body: the request body arrived slower than ${formatBytes(minRate)} a second over ${windowMs / 1000} s (REQUEST_BODY_MIN_RATE).`,
    "body",
  );
}

/**
 * Checks, each window, that the body came on at the least rate, and calls `slow` once when it
 * did not. A window is not held against the sender when the dashboard was behind: bytes that
 * arrived wait to be read (a paused socket reads nothing more), or this thread was busy for
 * half a window longer than asked — bytes that came meanwhile may not have been counted yet.
 * Returns the function that stops the watch; call it when the body has come or the request ended.
 */
export function watchArrival(body: Arrival, { minRate, windowMs }: ArrivalRate, slow: () => void): () => void {
  const least = Math.max(1, Math.floor((minRate * windowMs) / 1000));
  let seen = body.arrived();
  let checkedAt = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const blocked = now - checkedAt > windowMs * 1.5;
    checkedAt = now;
    const arrived = body.arrived() - seen;
    seen += arrived;
    if (blocked || arrived >= least || body.owesNothing()) return;
    clearInterval(timer);
    slow();
  }, windowMs);
  timer.unref();
  return () => clearInterval(timer);
}
