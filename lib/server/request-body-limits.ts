import "server-only";
import type http from "node:http";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/lib/http/read-body";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { bodyTooSlow, watchArrival } from "./arrival-rate";
import { clientAddressOf } from "./client-address";
import { env } from "./env";
import { hookServerRequests } from "./http-request-hook";
import { holdBytes, MIN_HOLD_BYTES } from "./inflight-budget";
import { networkOf } from "./ip-ranges";
import { answerOnSocket, sendAnswer } from "./node-answer";
import { errorResponse, tooLarge } from "./route";

/**
 * The bounds of every request body the dashboard takes, enforced on Node's HTTP server before
 * Next sees the request (the ingest's deliveries have tighter ones of their own and are taken
 * before this, lib/server/event-stream/fast-path.ts). Next reads a body before any route can
 * refuse it — for a path its proxy runs on (proxy.ts), a copy of the whole body — so a limit
 * a route enforces comes too late. Here, before a byte is read:
 *
 * - a body must say how long it is: a chunked one is a 411. The dashboard's own pages never send
 *   one, and with every length known up front no body can outgrow what Next's proxy copies
 *   (`proxyClientMaxBodySize` in next.config.mjs is MAX_REQUEST_BYTES), so none reaches a
 *   route silently cut short;
 * - a declared Content-Length over MAX_REQUEST_BYTES is a 413;
 * - the declared length (at least MIN_HOLD_BYTES) is held out of REQUEST_INFLIGHT_BYTES, and out
 *   of the client address's share, REQUEST_INFLIGHT_BYTES_PER_ADDRESS, until the answer is
 *   done; a body that does not fit either is a 429 with Retry-After naming the limit. So the
 *   bodies held in memory at once are bounded, and one address cannot take all of it.
 * Refused unread, the rest is dropped after the answer, never held, then the connection closed
 * (lib/server/node-answer.ts): nobody else waits.
 *
 * While a body arrives it must keep coming: each REQUEST_BODY_WINDOW_MS at least
 * REQUEST_BODY_MIN_RATE bytes a second of it, or the rest of it (./arrival-rate.ts). A slower
 * sender is answered 408 and its connection closed, so a trickle cannot keep its hold (or a
 * socket) for long.
 * Node's own requestTimeout (300 s) still bounds any request's whole arrival.
 */
const RETRY_AFTER_S = 5;

export type RequestLimits = { inflightBytes: number; perAddressBytes: number; minRate: number; windowMs: number };

function requestLimits(): RequestLimits {
  const e = env();
  return {
    inflightBytes: e.REQUEST_INFLIGHT_BYTES,
    perAddressBytes: e.REQUEST_INFLIGHT_BYTES_PER_ADDRESS,
    minRate: e.REQUEST_BODY_MIN_RATE,
    windowMs: e.REQUEST_BODY_WINDOW_MS,
  };
}

/** Called once at start (instrumentation.ts), before the ingest's fast path, which then runs first. Idempotent. */
export function installRequestBodyLimits(): void {
  hookServerRequests(Symbol.for("mail-dashboard.request-body-limits"), (req, res) => {
    const refusal = admit(req, res);
    if (!refusal) return false;
    void sendAnswer(req, res, errorResponse(refusal, crypto.randomUUID()));
    return true;
  });
}

/** Null when the request may go on to Next (its body held and watched), else why not. */
function admit(req: http.IncomingMessage, res: http.ServerResponse): AppError | null {
  if (req.headers["transfer-encoding"] !== undefined) {
    return new AppError(411, "length_required", "body: send the request body with a Content-Length; a chunked body is not taken.", "body");
  }
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!(declared > 0)) return null;
  if (declared > MAX_REQUEST_BYTES) return tooLarge(MAX_REQUEST_BYTES);

  const limits = requestLimits();
  const size = Math.max(declared, MIN_HOLD_BYTES);
  const forwarded = req.headers["x-forwarded-for"];
  const address = networkOf(clientAddressOf(req.socket.remoteAddress ?? "", Array.isArray(forwarded) ? forwarded.join(", ") : (forwarded ?? null)));
  const total = { name: "requests", limit: limits.inflightBytes };
  const hold = holdBytes([total, { name: `requests@${address}`, limit: limits.perAddressBytes }]);
  const full = hold.grow(size);
  if (full) {
    hold.release();
    return busy(
      full === total
        ? `The dashboard is already receiving ${formatBytes(limits.inflightBytes)} of request bodies at once (REQUEST_INFLIGHT_BYTES).`
        : `Requests from your address are already sending ${formatBytes(limits.perAddressBytes)} at once (REQUEST_INFLIGHT_BYTES_PER_ADDRESS).`,
    );
  }
  // 'close' comes once the answer is sent, or the connection is gone: the body is held no longer.
  res.once("close", () => hold.release());
  watchBody(req, res, limits);
  return null;
}

function busy(what: string): AppError {
  const e = new AppError(429, "request_bodies_busy", `${what} Try again in ${RETRY_AFTER_S} s.`);
  e.retryAfterMs = RETRY_AFTER_S * 1000;
  return e;
}

/**
 * The body's arrival, watched on its socket. Bytes that arrived but still wait to be read mean
 * the dashboard (Next, a route) is behind, not the sender; a complete body owes nothing more.
 */
function watchBody(req: http.IncomingMessage, res: http.ServerResponse, limits: RequestLimits): void {
  const socket = req.socket;
  const stop = watchArrival({ arrived: () => socket.bytesRead, owesNothing: () => req.complete || socket.destroyed || req.readableLength > 0 }, limits, () => {
    // Once an answer has started (the route did not need the body), the trickle is only cut off.
    if (res.headersSent) return void socket.destroy();
    void answerOnSocket(socket, errorResponse(bodyTooSlow(limits), crypto.randomUUID()));
  });
  req.once("end", stop);
  req.once("close", stop);
}
