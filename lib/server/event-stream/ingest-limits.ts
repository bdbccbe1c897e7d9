import "server-only";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/contract/http/read-body";
import type { ArrivalRate } from "@/lib/server/http/arrival-rate";
import { env } from "@/lib/server/env";
import { SMALL_BODY_BYTES, type BodyBudget, type Pool } from "@/lib/server/http/inflight-budget";

/**
 * The bounds of the public ingest route, `POST /api/ingest/<project>`. Anyone on the internet
 * can reach it, and only the signature tells the service from a stranger, so every bound is
 * enforced before the work it bounds (README, "Limits and outbound requests"):
 *
 * - INGEST_MAX_BYTES: one delivery's body. A delivery is a few kilobytes; 1 MB is generous.
 *   A larger declared Content-Length is refused unread, a chunked body cut off at the limit.
 * - INGEST_INFLIGHT_BYTES: the bodies of all deliveries being read or recorded at once, in this
 *   process, held the way every request body is (lib/server/http/inflight-budget.ts): MIN_HOLD_BYTES
 *   from its headers on, and more only as its body arrives — never what it merely declares,
 *   which anybody can write: forty strangers declaring 1 MB and sending a byte hold 640 KB, not
 *   the whole budget. INGEST_INFLIGHT_SMALL_BYTES of it only deliveries declaring at most 64 KB
 *   may hold — the service's are a few KB — so larger and chunked ones, which a stranger can
 *   keep trickling longest, never starve them; and INGEST_INFLIGHT_BYTES_PER_ADDRESS, about one
 *   largest delivery, is what one address may hold of either kind, so it takes many addresses
 *   to fill the rest. One that does not fit is answered 429 with Retry-After at once. The
 *   budget also bounds how many deliveries are under way at once (8 MB / 16 KB = 512).
 * - ARRIVAL_WINDOW_MS with REQUEST_BODY_MIN_RATE: a body must keep coming, each second at least
 *   that rate or the rest of it (lib/server/http/arrival-rate.ts, as for every other request body),
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

export type IngestLimits = { maxBytes: number; budget: BodyBudget; bodyTimeoutMs: number; arrival: ArrivalRate };

export function ingestLimits(): IngestLimits {
  const e = env();
  const total = e.INGEST_INFLIGHT_BYTES;
  // The service sends from few addresses, and all its deliveries are small: an address may
  // hold as much of small ones as of large ones.
  const perAddress = e.INGEST_INFLIGHT_BYTES_PER_ADDRESS ?? Math.min(total, e.INGEST_MAX_BYTES);
  return {
    maxBytes: e.INGEST_MAX_BYTES,
    budget: {
      name: "ingest",
      total,
      reserved: e.INGEST_INFLIGHT_SMALL_BYTES ?? Math.max(0, Math.min(Math.floor(total / 4), total - e.INGEST_MAX_BYTES)),
      perAddress,
      smallPerAddress: perAddress,
    },
    bodyTimeoutMs: e.INGEST_BODY_TIMEOUT_MS,
    arrival: { minRate: e.REQUEST_BODY_MIN_RATE, windowMs: ARRIVAL_WINDOW_MS },
  };
}

export function deliveryTooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: a delivery is at most ${formatBytes(limit)} (INGEST_MAX_BYTES).`, "body");
}

export function deliveryTooSlow(timeoutMs: number): AppError {
  return new AppError(408, "request_timeout", `body: the delivery did not arrive within ${timeoutMs / 1000} s (INGEST_BODY_TIMEOUT_MS).`, "body");
}

/** A 429 that says which limit was reached (the pool a delivery did not fit); the caller adds Retry-After (BUSY_RETRY_AFTER_S). */
export function ingestBusy(full: Pool): AppError {
  const limit = formatBytes(full.limit);
  // An address's share is the same limit for its small deliveries and its large ones.
  const share = `Your address is already sending ${limit} of deliveries at once (INGEST_INFLIGHT_BYTES_PER_ADDRESS).`;
  const what = {
    total: `The dashboard is already receiving ${limit} of deliveries at once (INGEST_INFLIGHT_BYTES).`,
    large: `The dashboard is already receiving ${limit} of deliveries over ${formatBytes(SMALL_BODY_BYTES)} or of unknown length at once (INGEST_INFLIGHT_BYTES less INGEST_INFLIGHT_SMALL_BYTES, kept for smaller ones).`,
    address: share,
    "small-address": share,
  }[full.kind];
  return new AppError(429, "ingest_busy", `${what} Try again in ${BUSY_RETRY_AFTER_S} s.`);
}
