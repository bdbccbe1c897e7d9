import "server-only";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/http/read-body";
import type { ArrivalRate } from "@/lib/server/arrival-rate";
import { env } from "@/lib/server/env";
import type { Pool } from "@/lib/server/inflight-budget";
import { networkOf } from "@/lib/server/ip-ranges";

/**
 * The bounds of the public ingest route, `POST /api/ingest/<project>`. Anyone on the internet
 * can reach it, and only the signature tells the service from a stranger, so every bound is
 * enforced before the work it bounds (README, "Limits and outbound requests"):
 *
 * - INGEST_MAX_BYTES: one delivery's body. A delivery is a few kilobytes; 1 MB is generous.
 *   A larger declared Content-Length is refused unread, a chunked body cut off at the limit.
 * - INGEST_INFLIGHT_BYTES: the bodies of all deliveries being read or recorded at once, in this
 *   process, and INGEST_INFLIGHT_BYTES_PER_ADDRESS, one client address's share of it. A delivery
 *   holds MIN_HOLD_BYTES (lib/server/inflight-budget.ts) from its headers on, and more only as
 *   its body arrives — never what it merely declares, which anybody can write: forty strangers
 *   declaring 1 MB and sending a byte hold 640 KB, not the whole budget. One that does not fit
 *   is answered 429 with Retry-After at once. Thirty strangers posting 20 MB each cost the
 *   dashboard this much memory, not 600 MB; the budget also bounds how many deliveries are
 *   under way at once (8 MB / 16 KB = 512), and one address cannot take all of it.
 * - ARRIVAL_WINDOW_MS with REQUEST_BODY_MIN_RATE: a body must keep coming, each second at least
 *   that rate or the rest of it (lib/server/arrival-rate.ts, as for every other request body),
 *   so a sender that trickles bytes keeps its hold for a second, not INGEST_BODY_TIMEOUT_MS.
 * - INGEST_BODY_TIMEOUT_MS: the time a whole body may take to arrive.
 * - MAX_DELIVERY_EVENTS: events in one delivery that is a JSON list. A real service sends one
 *   event per delivery; the bound is the interface's batch size, so a list the service could
 *   produce from one batch still fits, and one delivery cannot queue thousands of re-reads.
 */
export const MAX_DELIVERY_EVENTS = 100;

/** Seconds a delivery refused for the in-flight budget is asked to wait. */
export const BUSY_RETRY_AFTER_S = 1;

/** How often a delivery's arrival is checked: a real one arrives whole within the first. */
export const ARRIVAL_WINDOW_MS = 1_000;

export type IngestLimits = { maxBytes: number; inflightBytes: number; perAddressBytes: number; bodyTimeoutMs: number; arrival: ArrivalRate };

export function ingestLimits(): IngestLimits {
  const e = env();
  const inflightBytes = e.INGEST_INFLIGHT_BYTES;
  return {
    maxBytes: e.INGEST_MAX_BYTES,
    inflightBytes,
    perAddressBytes: e.INGEST_INFLIGHT_BYTES_PER_ADDRESS ?? Math.min(inflightBytes, Math.max(e.INGEST_MAX_BYTES, Math.floor(inflightBytes / 4))),
    bodyTimeoutMs: e.INGEST_BODY_TIMEOUT_MS,
    arrival: { minRate: e.REQUEST_BODY_MIN_RATE, windowMs: ARRIVAL_WINDOW_MS },
  };
}

const TOTAL_POOL = "ingest";

/** What a delivery from `address` holds its body in: the ingest's budget and the address's (for IPv6, its /64's) share. */
export function ingestPools(limits: IngestLimits, address: string): Pool[] {
  return [
    { name: TOTAL_POOL, limit: limits.inflightBytes },
    { name: `ingest@${networkOf(address)}`, limit: limits.perAddressBytes },
  ];
}

export function deliveryTooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: a delivery is at most ${formatBytes(limit)} (INGEST_MAX_BYTES).`, "body");
}

export function deliveryTooSlow(timeoutMs: number): AppError {
  return new AppError(408, "request_timeout", `body: the delivery did not arrive within ${timeoutMs / 1000} s (INGEST_BODY_TIMEOUT_MS).`, "body");
}

/** A 429 that says which limit was reached (the pool a delivery did not fit); the caller adds Retry-After (BUSY_RETRY_AFTER_S). */
export function ingestBusy(full: Pool): AppError {
  const what =
    full.name === TOTAL_POOL
      ? `The dashboard is already receiving ${formatBytes(full.limit)} of deliveries at once (INGEST_INFLIGHT_BYTES).`
      : `Your address is already sending ${formatBytes(full.limit)} of deliveries at once (INGEST_INFLIGHT_BYTES_PER_ADDRESS).`;
  return new AppError(429, "ingest_busy", `${what} Try again in ${BUSY_RETRY_AFTER_S} s.`);
}
