import "server-only";
import type http from "node:http";
import { AppError } from "@/lib/errors";
import { formatBytes } from "@/contract/http/read-body";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { bodyTooSlow, watchArrival, type ArrivalRate } from "./arrival-rate";
import { clientAddressOf } from "./client-address";
import { env } from "@/lib/server/env";
import { errorResponse, tooLarge } from "./error-answer";
import { hookServerRequests } from "./http-request-hook";
import { holdBody, SMALL_BODY_BYTES, type BodyBudget, type Hold, type Pool } from "./inflight-budget";
import { networkOf } from "@/lib/net/ip-ranges";
import { answerOnSocket, sendAnswer } from "./node-answer";

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
 * - MIN_HOLD_BYTES is held out of REQUEST_INFLIGHT_BYTES, and out of the part of it the body's
 *   declared size may use and the client address's share, until the answer is done; a body
 *   that does not fit is a 429 with Retry-After naming the limit. The hold then grows with
 *   what arrives, chunk by chunk, never to what is merely declared (lib/server/http/inflight-budget.ts,
 *   the ingest's way too): a chunk that does not fit is answered the same 429 and its
 *   connection closed. REQUEST_INFLIGHT_SMALL_BYTES of the budget only bodies declaring at most
 *   64 KB (a sign-in, an ordinary JSON write) may hold, so however many large bodies strangers
 *   keep open, a sign-in still gets in; an address holds at most REQUEST_INFLIGHT_BYTES_PER_ADDRESS
 *   of large bodies and an eighth of REQUEST_INFLIGHT_SMALL_BYTES of small ones. So the bodies
 *   held in memory at once are bounded, and it takes many addresses to fill them.
 * Refused unread, the rest is dropped after the answer, never held, then the connection closed
 * (lib/server/http/node-answer.ts): nobody else waits.
 *
 * While a body arrives it must keep coming: each REQUEST_BODY_WINDOW_MS at least
 * REQUEST_BODY_MIN_RATE bytes a second of it, or the rest of it (./arrival-rate.ts). A slower
 * sender is answered 408 and its connection closed, so a trickle cannot keep its hold (or a
 * socket) for long.
 * Node's own requestTimeout (300 s) still bounds any request's whole arrival.
 */
const RETRY_AFTER_S = 5;

export type RequestLimits = { budget: BodyBudget; minRate: number; windowMs: number };

export function requestLimits(): RequestLimits {
  const e = env();
  const total = e.REQUEST_INFLIGHT_BYTES;
  const reserved = e.REQUEST_INFLIGHT_SMALL_BYTES ?? Math.min(Math.floor(total / 8), total - MAX_REQUEST_BYTES);
  return {
    budget: {
      name: "requests",
      total,
      reserved,
      perAddress: e.REQUEST_INFLIGHT_BYTES_PER_ADDRESS ?? Math.max(MAX_REQUEST_BYTES, Math.floor(total / 8)),
      smallPerAddress: Math.max(SMALL_BODY_BYTES, Math.floor(reserved / 8)),
    },
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
  const forwarded = req.headers["x-forwarded-for"];
  const address = networkOf(clientAddressOf(req.socket.remoteAddress ?? "", Array.isArray(forwarded) ? forwarded.join(", ") : (forwarded ?? null)));
  const { hold, full } = holdBody(limits.budget, address, declared);
  if (!hold) return busy(full);
  holdAsItArrives(req, res, hold);
  watchBody(req, res, limits);
  return null;
}

function busy(full: Pool): AppError {
  const limit = formatBytes(full.limit);
  const what = {
    total: `The dashboard is already receiving ${limit} of request bodies at once (REQUEST_INFLIGHT_BYTES).`,
    large: `The dashboard is already receiving ${limit} of request bodies over ${formatBytes(SMALL_BODY_BYTES)} at once (REQUEST_INFLIGHT_BYTES less REQUEST_INFLIGHT_SMALL_BYTES, kept for smaller ones).`,
    address: `Requests from your address are already sending ${limit} at once (REQUEST_INFLIGHT_BYTES_PER_ADDRESS).`,
    "small-address": `Requests from your address are already sending ${limit} of small bodies at once (an eighth of REQUEST_INFLIGHT_SMALL_BYTES).`,
  }[full.kind];
  const e = new AppError(429, "request_bodies_busy", `${what} Try again in ${RETRY_AFTER_S} s.`);
  e.retryAfterMs = RETRY_AFTER_S * 1000;
  return e;
}

/**
 * Grows `hold` with each chunk of the body as Node's parser hands it to the request, before
 * Next (or anyone) can read it: the one place a chunk is seen as it arrives, since Node's
 * parser reads the socket itself. A chunk that does not fit is not passed on; the request is
 * answered 429 (or, if an answer has started, its connection cut) and reads nothing more.
 * Released once the answer is sent or the connection gone; what still comes after the answer
 * is Node's to drop, as before.
 */
function holdAsItArrives(req: http.IncomingMessage, res: http.ServerResponse, hold: Hold): void {
  let answered = false;
  res.once("close", () => {
    answered = true;
    hold.release();
  });
  const push = req.push.bind(req);
  let arrived = 0;
  let refused = false;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (refused) return false;
    if (!answered && chunk !== null && chunk !== undefined) {
      arrived += (chunk as Buffer).length;
      const full = hold.grow(arrived);
      if (full) {
        refused = true;
        hold.release();
        if (res.headersSent) req.socket.destroy();
        else void answerOnSocket(req.socket, errorResponse(busy(full), crypto.randomUUID()));
        return false;
      }
    }
    return push(chunk, encoding);
  };
}

/**
 * The body's arrival, watched on its socket. Bytes that arrived but still wait to be read mean
 * the dashboard (Next, a route) is behind, not the sender; a complete body owes nothing more.
 */
function watchBody(req: http.IncomingMessage, res: http.ServerResponse, limits: ArrivalRate): void {
  const socket = req.socket;
  const stop = watchArrival({ arrived: () => socket.bytesRead, owesNothing: () => req.complete || socket.destroyed || req.readableLength > 0 }, limits, () => {
    // Once an answer has started (the route did not need the body), the trickle is only cut off.
    if (res.headersSent) return void socket.destroy();
    void answerOnSocket(socket, errorResponse(bodyTooSlow(limits), crypto.randomUUID()));
  });
  req.once("end", stop);
  req.once("close", stop);
}
