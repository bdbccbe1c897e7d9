import { request } from "node:http";

/**
 * For tests of a body limit over real HTTP (both programs' tests use it, like huge-body.ts):
 * POSTs to `url` chunk after chunk, as fast as the server takes them, until it answers or
 * `total` bytes are sent. Gives the answer's status and body, and how much had been sent when
 * it came: a server that stops at its limit answers after about the limit (and what socket
 * buffers held), one that reads the whole body first only after `total`. Rejects on a failure
 * before the answer, or with none within `timeoutMs`.
 */
export function postUntilAnswered(
  url: string,
  headers: Record<string, string>,
  total: number,
  opts: { chunkBytes?: number; timeoutMs?: number } = {},
): Promise<{ status: number; body: string; sentWhenAnswered: number }> {
  const chunk = Buffer.alloc(opts.chunkBytes ?? 256 * 1024, 0x61); // "aaaa…": valid text, invalid JSON
  let sent = 0;
  let sentWhenAnswered = -1;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers });
    req.on("response", (res) => {
      sentWhenAnswered = sent;
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered });
      });
    });
    req.on("error", (e) => (sentWhenAnswered >= 0 ? undefined : reject(e)));
    const next = () => {
      while (sent < total && sentWhenAnswered < 0) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", next);
      }
      if (sentWhenAnswered < 0) req.end();
    };
    next();
    setTimeout(() => reject(new Error(`no answer from ${url} within ${(opts.timeoutMs ?? 30_000) / 1000} s`)), opts.timeoutMs ?? 30_000).unref();
  });
}
