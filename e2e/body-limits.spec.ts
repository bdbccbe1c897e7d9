import { request as httpRequest } from "node:http";
import { MAX_REQUEST_BYTES } from "../lib/schemas/limits";
import { expect, test } from "./fixtures";
import { project } from "./helpers/marketer";
import { run } from "./support/run";

/**
 * Finding 1 of the security review, replayed over real HTTP against the built dashboard: a
 * 400 MB chunked POST to the ingest route (no sign-in needed) raised the server's memory by
 * 1.2 GB before its 413. Now the 413 comes once the limit has been read: the client has sent
 * about the limit (plus what sat in socket buffers) when the answer arrives, not 400 MB.
 */
test("a 400 MB chunked POST to the ingest route is refused after about the limit has been read", async () => {
  test.setTimeout(120_000);
  const target = new URL(`/api/ingest/${project}`, run.baseURL);
  const total = 400 * 1024 * 1024;
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  let sentWhenAnswered = -1;
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({
      host: target.hostname, port: target.port, method: "POST", path: target.pathname,
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
    });
    req.on("response", (res) => {
      sentWhenAnswered = sent;
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (e) => (sentWhenAnswered >= 0 ? undefined : reject(e)));
    const pump = () => {
      while (sent < total && sentWhenAnswered < 0) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (sentWhenAnswered < 0) req.end();
    };
    pump();
  });
  console.log(`ingest: 413 after ${Math.round(sentWhenAnswered / 1024 / 1024)} MB of a 400 MB upload (limit ${MAX_REQUEST_BYTES / 1024 / 1024} MB)`);
  expect(status).toBe(413);
  expect(sentWhenAnswered).toBeLessThan(MAX_REQUEST_BYTES + 32 * 1024 * 1024);
});
