import "server-only";
import type http from "node:http";
import { AppError } from "@/lib/errors";
import { PEER_HEADER } from "@/lib/server/http/client-address";
import { hookServerRequests } from "@/lib/server/http/http-request-hook";
import { sendAnswer } from "@/lib/server/http/node-answer";
import { nodeBody } from "./delivery-body";
import { ingestErrorAnswer } from "./ingest-answer";
import { ingestResponse } from "./ingest-response";

/**
 * The ingest's fast path: `POST /api/ingest/<project>` answered as the HTTP server receives
 * it, before Next routes it. Next's handling of a request (routing, manifests, its async
 * context, the web Request and Response around the handler) cost the dashboard about 2 ms of
 * CPU per delivery, twice what recording the event costs, and the ingest shares one thread
 * with the database on PGlite. The delivery needs none of it: no session, no page, no proxy
 * (the signature is the authentication). The answer is ./ingest-response.ts's, the one
 * implementation (the app route only delegates to it, for `next dev` and the test harness),
 * with the headers next.config.mjs gives every API answer.
 *
 * Every POST under /api/ingest/ is taken here, so the ingest's limits (./ingest-limits.ts)
 * hold whatever the path looks like: a %-escaped project is decoded as Next would, and a path
 * of another shape (a trailing slash, more segments) is a 404 — left to Next, a path with a
 * `%` runs the proxy (proxy.ts), and Next reads up to 10 MB of the body for it before any
 * route is asked. Other methods go on to Next, which answers them as before. Installed once at
 * start (instrumentation.ts), like the peer-address header (lib/server/http/client-address.ts),
 * through lib/server/http/http-request-hook.ts. The target is matched as Next would route it: one
 * in absolute form (`POST http://host/api/ingest/<project>`, which HTTP/1.1 servers must
 * accept) by its path, and dot segments resolved, so no spelling of the path reaches Next.
 */
const PREFIX = "/api/ingest/";
const ONE_SEGMENT = /^([^/?#]+)(?:\?.*)?$/;

export function installIngestFastPath(): void {
  hookServerRequests(Symbol.for("mail-dashboard.ingest-fast-path"), (req, res) => {
    if (req.method !== "POST") return false;
    const target = targetPath(req.url ?? "");
    if (!target?.startsWith(PREFIX)) return false;
    void answer(req, res, target);
    return true;
  });
}

/**
 * The request target's path and query as Next routes it (next/dist/shared/lib/router/utils/
 * parse-url.js): a WHATWG URL's, so dot segments are resolved (`/x/../api/ingest/p` is the
 * ingest too) and an absolute URL stands for its path; %-escapes stay as sent, decoded once
 * below. Null for what is no URL (`*`), which Next answers.
 */
function targetPath(url: string): string | null {
  try {
    const parsed = url.startsWith("/") ? new URL(`http://n${url}`) : new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return null;
  }
}

/** The project the path names, or the error that answers it. */
function projectOf(url: string): string | AppError {
  const segment = ONE_SEGMENT.exec(url.slice(PREFIX.length))?.[1];
  if (segment === undefined) return new AppError(404, "not_found", "Deliveries go to /api/ingest/<project>.");
  try {
    return decodeURIComponent(segment);
  } catch {
    return new AppError(400, "validation_error", "project: the path holds malformed percent-encoding.", "project");
  }
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, target: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  // The TCP peer, for the client address's share of the budget: this runs before the hook that
  // writes it for Next (lib/server/http/client-address.ts), and a client's own header is overwritten.
  headers.set(PEER_HEADER, req.socket.remoteAddress ?? "");
  const path = new URL(`http://ingest.invalid${target}`).pathname;
  const project = projectOf(target);
  const response = typeof project === "string" ? await ingestResponse(project, headers, () => nodeBody(req), path) : ingestErrorAnswer(project, path);
  await sendAnswer(req, res, response);
}
