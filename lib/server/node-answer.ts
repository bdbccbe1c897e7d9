import "server-only";
import http from "node:http";
import type { Socket } from "node:net";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/server/security-headers";

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
 * Writes `response` as the answer to a request Next has not seen. A body refused unread (or
 * not read to its end) is not read on: the connection closes after the answer.
 */
export async function sendAnswer(req: http.IncomingMessage, res: http.ServerResponse, response: Response): Promise<void> {
  if (res.destroyed) return;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  res.statusCode = response.status;
  for (const [name, value] of headersOf(response)) res.setHeader(name, value);
  if (!req.complete) res.setHeader("Connection", "close");
  if (body) res.setHeader("Content-Length", body.length);
  res.end(body);
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
