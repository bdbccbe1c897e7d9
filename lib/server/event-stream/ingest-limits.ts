import "server-only";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/http/read-body";
import { env } from "@/lib/server/env";

/**
 * The bounds of the public ingest route, `POST /api/ingest/<project>`. Anyone on the internet
 * can reach it, and only the signature tells the service from a stranger, so every bound is
 * enforced before the work it bounds (README, "Limits and outbound requests"):
 *
 * - INGEST_MAX_BYTES: one delivery's body. A delivery is a few kilobytes; 1 MB is generous.
 *   A larger declared Content-Length is refused unread, a chunked body cut off at the limit.
 * - INGEST_INFLIGHT_BYTES: the bodies of all deliveries being read or recorded at once, in this
 *   process. A delivery that does not fit is answered 429 with Retry-After at once, unread:
 *   thirty strangers posting 20 MB each cost the dashboard this much memory, not 600 MB. Each
 *   delivery holds at least MIN_HOLD_BYTES (lib/server/inflight-budget.ts), so it also bounds
 *   how many are under way at once (8 MB / 16 KB = 512).
 * - INGEST_BODY_TIMEOUT_MS: the time a body may take to arrive, so a sender that trickles
 *   bytes cannot hold its share of the budget (or a socket) for long.
 * - MAX_DELIVERY_EVENTS: events in one delivery that is a JSON list. A real service sends one
 *   event per delivery; the bound is the interface's batch size, so a list the service could
 *   produce from one batch still fits, and one delivery cannot queue thousands of re-reads.
 */
export const MAX_DELIVERY_EVENTS = 100;

/** Seconds a delivery refused for the in-flight budget is asked to wait. */
export const BUSY_RETRY_AFTER_S = 1;

export type IngestLimits = { maxBytes: number; inflightBytes: number; bodyTimeoutMs: number };

export function ingestLimits(): IngestLimits {
  const e = env();
  return { maxBytes: e.INGEST_MAX_BYTES, inflightBytes: e.INGEST_INFLIGHT_BYTES, bodyTimeoutMs: e.INGEST_BODY_TIMEOUT_MS };
}

export function deliveryTooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: a delivery is at most ${formatBytes(limit)} (INGEST_MAX_BYTES).`, "body");
}

export function deliveryTooSlow(timeoutMs: number): AppError {
  return new AppError(408, "request_timeout", `body: the delivery did not arrive within ${timeoutMs / 1000} s (INGEST_BODY_TIMEOUT_MS).`, "body");
}

/** A 429 that says which limit was reached; the caller adds Retry-After (BUSY_RETRY_AFTER_S). */
export function ingestBusy(limit: number): AppError {
  return new AppError(
    429,
    "ingest_busy",
    `The dashboard is already receiving ${formatBytes(limit)} of deliveries at once (INGEST_INFLIGHT_BYTES). Try again in ${BUSY_RETRY_AFTER_S} s.`,
  );
}
