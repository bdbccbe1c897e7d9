import "server-only";
import http from "node:http";
import type { Socket } from "node:net";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { answerTextOf } from "@/lib/server/http/answer-text";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/server/http/security-headers";

/**
 * Answers the dashboard gives on Node's HTTP server itself, before or beside Next (the ingest's
 * fast path, the request-body limits), with the headers next.config.mjs gives every API answer.
 */

/** The headers of `response` with the API's static ones, as one list. */
function headersOf(response: Response): [string, string][] {
  const out: [string, string][] = STATIC_SECURITY_HEADERS.map(({ key, value }) => [key, value]);
  out.push(["Content-Security-Policy", API_CONTENT_SECURITY_POLICY]);
  response.headers.forEach((value, name) => out.push([name, value]));
  return out;
}

/**
 * What of a refused body is still taken, and dropped, after the answer: at most this long and
 * this many bytes (the largest body the dashboard takes, so a sender within the limits always
 * gets to read its answer), then the connection is closed.
 */
export const LINGER_MS = 10_000;
export const LINGER_BYTES = MAX_REQUEST_BYTES;

/**
 * Writes `response` as the answer to a request Next has not seen. A body refused unread (or
 * not read to its end) is dropped, never held: see dropTheRest.
 */
export async function sendAnswer(req: http.IncomingMessage, res: http.ServerResponse, response: Response): Promise<void> {
  if (res.destroyed) return;
  // route()'s JSON answers come with their text (./answer-text.ts): not read back through the
  // stream, and written as text, which Node sends in one write with the head.
  let body: Buffer | string | null = answerTextOf(response) ?? (response.body ? Buffer.from(await response.arrayBuffer()) : null);
  res.statusCode = response.status;
  for (const [name, value] of headersOf(response)) res.setHeader(name, value);
  if (body !== null && compressible(response, Buffer.byteLength(body))) {
    // The answer depends on the request's Accept-Encoding whether or not this one takes gzip:
    // a cache between must not hand the plain answer to a client asking for gzip, or the reverse.
    res.setHeader("Vary", "Accept-Encoding");
    if (acceptsGzip(req)) {
      body = await gzip(body);
      res.setHeader("Content-Encoding", "gzip");
    }
  }
  if (body !== null) res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
  if (!req.complete) dropTheRest(req);
}

const gzip = promisify(zlib.gzip);
/** Next's compressor (the `compression` package under `next start`) leaves smaller bodies as they are. */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Whether Next would gzip this answer for a client that accepts gzip: JSON or text of at least
 * COMPRESS_FROM_BYTES, and no `no-transform` (which route() sets on small JSON answers).
 */
function compressible(response: Response, bytes: number): boolean {
  if (bytes < COMPRESS_FROM_BYTES || response.headers.has("content-encoding")) return false;
  if (/\bno-transform\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  return /^(application\/json|text\/)/i.test(response.headers.get("content-type") ?? "");
}

const acceptsGzip = (req: http.IncomingMessage) => /\bgzip\b/i.test(String(req.headers["accept-encoding"] ?? ""));

/**
 * The rest of a refused body, read and dropped as it comes, within LINGER_MS and LINGER_BYTES;
 * past either the connection is closed. Closing at once, with the body still arriving, resets
 * the connection, and the sender's HTTP client can lose the answer it had not read yet (the
 * browser tests saw a 413 turn into EPIPE): the "lingering close" of RFC 9112, 9.6.
 */
function dropTheRest(req: http.IncomingMessage): void {
  const socket = req.socket;
  const until = socket.bytesRead + LINGER_BYTES;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  const done = () => clearTimeout(timer);
  req.once("end", done);
  req.once("close", done);
  req.on("error", () => {});
  req.on("data", () => {
    if (socket.bytesRead > until) socket.destroy();
  });
  req.resume();
}

/**
 * Writes `response` straight to the socket of a request Next is already handling, then closes
 * the connection, as Node itself answers a request past its requestTimeout: Next's own answer,
 * if it ever makes one, goes nowhere. Only before any answer has started on this socket.
 */
export async function answerOnSocket(socket: Socket, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? ""}`];
  for (const [name, value] of headersOf(response)) head.push(`${name}: ${value}`);
  head.push("Connection: close", `Content-Length: ${body.length}`, "", "");
  if (socket.destroyed) return;
  socket.end(Buffer.concat([Buffer.from(head.join("\r\n")), body]), () => socket.destroy());
}
