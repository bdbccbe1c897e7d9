import "server-only";
import type http from "node:http";
import { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/server/env";
import { PEER_HEADER } from "@/lib/server/http/client-address";
import { holdingAfterResponse } from "@/lib/server/http/after-response";
import { hookServerRequests } from "@/lib/server/http/http-request-hook";
import { errorResponse } from "@/lib/server/http/error-answer";
import { sendAnswer } from "@/lib/server/http/node-answer";
import { messageReadRoute } from "./read-route";

/**
 * The message read's fast path: `GET /api/p/<project>/messages/<id>` answered as the HTTP
 * server receives it, before Next routes it, as the ingest's deliveries are
 * (lib/server/event-stream/fast-path.ts). Next's own handling of a request (routing,
 * manifests, its async context, the web Request and Response around the handler) cost about as
 * much as the service's round trip it wraps (`npm run bench:gateway`: the cached read, which
 * asks nothing, took 0.9x the direct call), and support opens this read more than any other.
 *
 * Nothing of the guard is skipped: the request goes through the same `route()` handler the app
 * route delegates to (./read-route.ts), so the session is validated as on every route (cookie,
 * then the session's row, user, role and grants, lib/server/gate/access.ts), the project is
 * the guard's 404/403, the answer, its errors and its X-Correlation-Id are route()'s, the
 * headers are the ones next.config.mjs gives every API answer (node-answer.ts), and the
 * request is counted and logged by the metrics hook that runs around every hook
 * (lib/server/metrics/http-requests.ts, installed after this one).
 *
 * Only the plain spelling is taken: an origin-form target whose two segments are made of
 * unreserved characters (no `%` escape, no dot segment), with any query. Next hands such
 * segments to the route as they are, so both doors see the same params; every other spelling
 * (escapes, which proxy.ts checks; dot segments; a trailing slash; an absolute-form target) and
 * every other method go on to Next, which answers them as before.
 */
const READ = /^\/api\/p\/([A-Za-z0-9_~.-]+)\/messages\/([A-Za-z0-9_~.-]+)(?:\?.*)?$/;
const DOT_SEGMENT = (s: string) => s === "." || s === "..";
/**
 * The static routes beside `[id]` in app/api/p/[project]/messages/: Next routes those before
 * the dynamic segment, so this door must leave them (the test reads the folder and fails on a
 * new one missing here).
 */
const STATIC_SIBLINGS = new Set(["export"]);

/** The project and id of a message read this door takes, or null for Next. */
export function messageReadTarget(method: string | undefined, url: string | undefined): { project: string; id: string } | null {
  if (method !== "GET" || !url) return null;
  const m = READ.exec(url);
  if (!m || DOT_SEGMENT(m[1]!) || DOT_SEGMENT(m[2]!) || STATIC_SIBLINGS.has(m[2]!)) return null;
  return { project: m[1]!, id: m[2]! };
}

export function installMessageReadFastPath(): void {
  hookServerRequests(Symbol.for("mail-dashboard.message-read-fast-path"), (req, res) => {
    const target = messageReadTarget(req.method, req.url);
    if (!target) return false;
    answer(req, res, target).catch((e: unknown) => {
      // route() answers every error itself; this is a failure around it (the answer's write).
      console.error("message read fast path:", e);
      res.destroy();
    });
    return true;
  });
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, params: { project: string; id: string }): Promise<void> {
  const request = nextRequestOf(req);
  if (request instanceof Response) return sendAnswer(req, res, request);
  const { result: response, release } = await holdingAfterResponse(() => messageReadRoute(request, { params: Promise.resolve(params) }));
  try {
    await sendAnswer(req, res, response);
  } finally {
    // The work after the answer (the session's last-seen, the index's write) once it is out, as Next's after() runs it.
    if (res.writableFinished || res.destroyed) release();
    else res.once("close", release);
  }
}

/**
 * The request as route() takes it. Its headers go in as one list, read once, and its URL as
 * text. A header Node's parser let through but the web's Headers refuses (a value with a byte
 * it does not take) is the client's mistake: a 400, as route() words its errors, where the
 * TypeError used to close the connection.
 */
export function nextRequestOf(req: http.IncomingMessage): NextRequest | Response {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== PEER_HEADER) headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
  }
  // The TCP peer, as the hook that writes it for Next would (lib/server/http/client-address.ts); a client's own header is overwritten.
  headers.push([PEER_HEADER, req.socket.remoteAddress ?? ""]);
  // The door takes origin-form targets only (messageReadTarget), so the path joins the origin as it is.
  const url = `${env().publicOrigin}${req.url!}`;
  try {
    return deferredNextRequest(url, new Headers(headers));
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    const refused = new AppError(400, "invalid_header", "A header of the request has a value that is not allowed.");
    return errorResponse(refused, crypto.randomUUID(), `GET ${new URL(url).pathname}`);
  }
}

/**
 * A NextRequest whose method, URL and headers are given as they are, the NextRequest itself
 * made only if something reads more of it: route() and the read's handler read those three
 * (the guard its cookie, the handler its Cache-Control, an error's log line the method and
 * path), and making the whole request — undici's Request, a second parse of the URL into
 * NextURL, the cookies — was a tenth of the dashboard's CPU in a read that asks the service
 * (0.26 ms of 2.6 ms, the dashboard profiled under `npm run bench:gateway`'s no-cache read).
 * Anything else (its cookies, nextUrl, signal, a method) is the real request's, made then.
 */
function deferredNextRequest(url: string, headers: Headers): NextRequest {
  let whole: NextRequest | undefined;
  const made = () => (whole ??= new NextRequest(url, { method: "GET", headers }));
  return new Proxy(Object.create(NextRequest.prototype) as NextRequest, {
    get(_target, key) {
      if (key === "method") return "GET";
      if (key === "url") return url;
      if (key === "headers") return headers;
      const request = made();
      const value: unknown = Reflect.get(request, key, request);
      return typeof value === "function" ? value.bind(request) : value;
    },
  });
}
