import "server-only";
import http from "node:http";
import { AppError } from "@/lib/errors";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { tooLarge } from "@/lib/server/route";
import { hookServerRequests } from "@/lib/server/http-request-hook";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/server/security-headers";
import { ingestResponse } from "./ingest-response";

/**
 * The ingest's fast path: `POST /api/ingest/<project>` answered as the HTTP server receives
 * it, before Next routes it. Next's handling of a request (routing, manifests, its async
 * context, the web Request and Response around the handler) cost the dashboard about 2 ms of
 * CPU per delivery, twice what recording the event costs, and the ingest shares one thread
 * with the database on PGlite. The delivery needs none of it: no session, no page, no proxy
 * (the signature is the authentication). The answer is the route's own (./ingest-response.ts)
 * with the headers next.config.mjs gives every API answer.
 *
 * Only a plain path is taken — the project id as the schema allows it, optionally a query —
 * and only POST; anything else (a %-escape, a trailing slash, another method) goes on to
 * Next, which answers it as before. Installed once at start (instrumentation.ts), like the
 * peer-address header (lib/server/client-address.ts), through lib/server/http-request-hook.ts.
 */
const PATH = /^\/api\/ingest\/([A-Za-z0-9][A-Za-z0-9._~:-]*)(?:\?.*)?$/;

export function installIngestFastPath(): void {
  hookServerRequests(Symbol.for("mail-dashboard.ingest-fast-path"), (req, res) => {
    const project = req.method === "POST" ? PATH.exec(req.url ?? "")?.[1] : undefined;
    if (project === undefined) return false;
    void answer(project, req, res);
    return true;
  });
}

async function answer(project: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const response = await ingestResponse(project, () => readBody(req, MAX_REQUEST_BYTES), headers, () => new Request(`http://ingest.invalid${req.url}`, { method: "POST" }));
  if (res.destroyed) return;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  res.statusCode = response.status;
  for (const { key, value } of STATIC_SECURITY_HEADERS) res.setHeader(key, value);
  res.setHeader("Content-Security-Policy", API_CONTENT_SECURITY_POLICY);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  // A body refused unread is not read on: the connection closes after the answer.
  if (!req.complete) res.setHeader("Connection", "close");
  if (body) res.setHeader("Content-Length", body.length);
  res.end(body);
}

/** The body as text (as the route reads it: UTF-8, a leading BOM dropped), refused past `limit` without reading on. */
function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))));
    // The sender went away mid-body: nobody reads the answer, and it is no failure of ours.
    req.once("error", () => reject(new AppError(400, "validation_error", "body: the request body was cut off.", "body")));
  });
}
