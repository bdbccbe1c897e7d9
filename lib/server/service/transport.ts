import "server-only";
import http from "node:http";
import https from "node:https";

/**
 * One HTTP exchange with the service, on Node's own client with kept-alive connections.
 *
 * Why not `fetch`: inside Next, `fetch` is Next's patched one (cache bookkeeping, tracing) over
 * undici's web streams; a service read through it cost the dashboard about a millisecond of CPU
 * more than through `http.request` (`npm run bench:gateway`, the no-cache read). The client
 * reads every answer whole and small, so streams buy nothing here.
 *
 * - `maxBytes` bounds what is read of an answer: past it the connection is dropped and the
 *   exchange fails with `AnswerTooLargeError` (the interface states no size limit, so the
 *   bound is generous; it is there so a misbehaving service cannot fill the dashboard's memory).
 * - `timeoutMs` covers connecting, sending and reading the whole answer.
 * - `reuse: false` opens a connection of its own: an exchange that must not be retried (a POST
 *   without an Idempotency-Key) never goes out on a kept-alive connection the service may be
 *   closing at that moment, where it would fail without having been sent.
 * - Redirects are never followed (a redirect could carry the key to another origin).
 */
export type Exchange = {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  reuse?: boolean;
};

export type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

export class ExchangeTimeoutError extends Error {
  override name = "TimeoutError";
}

export class AnswerTooLargeError extends Error {
  override name = "AnswerTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

// Idle connections are closed after 4 s, before a server's usual 5 s keep-alive ends them
// under a request being written.
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 4_000 };
const AGENTS = Symbol.for("mail-dashboard.service-agents");

function agentFor(protocol: string): http.Agent {
  // On globalThis: Next bundles routes separately, and all should share the connections.
  const holder = globalThis as { [AGENTS]?: { http: http.Agent; https: https.Agent } };
  const agents = (holder[AGENTS] ??= { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) });
  return protocol === "https:" ? agents.https : agents.http;
}

export function exchange(url: URL, o: Exchange): Promise<Answer> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        req.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const headers: Record<string, string> = { ...o.headers };
    if (o.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(o.body));
    const req = client.request(url, { method: o.method, headers, agent: o.reuse === false ? false : agentFor(url.protocol) }, (res) => {
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > o.maxBytes) return finish(new AnswerTooLargeError(o.maxBytes));
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > o.maxBytes) return finish(new AnswerTooLargeError(o.maxBytes));
        chunks.push(chunk);
      });
      res.on("end", () => finish(null, { status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (e) => finish(e));
      res.on("aborted", () => finish(new Error("the service closed the connection mid-answer")));
    });
    const timer = setTimeout(() => finish(new ExchangeTimeoutError(`no whole answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on("error", (e) => finish(e));
    req.end(o.body);
  });
}
