/**
 * The flood of e2e/helpers/abuse-ingest.ts `flood()`, in a thread of its own (worker_threads):
 * writing hundreds of megabytes at once kept the test's own event loop busy at the flood's
 * start, and the signed deliveries the test timed meanwhile waited on it, not only on the
 * dashboard. Plain JavaScript, as Node loads a worker's file without the test's TypeScript.
 *
 * workerData: { url, specs: [{ chunked, headers }], rounds, bytes, deadlineMs }; posts back the
 * answers (FloodAnswer[]). Each spec's request is sent again when answered, `rounds` times;
 * one shared 256 KB buffer is written again and again, so the thread holds kilobytes, not
 * `count × bytes`. A request stops writing once answered; one unanswered after `deadlineMs`
 * is cut.
 */
const { parentPort, workerData } = require("node:worker_threads");
const { request } = require("node:http");

const CHUNK = Buffer.alloc(256 * 1024, "x");

function floodOne(url, spec, bytes, deadlineMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    let sent = 0;
    let done = false;
    const finish = (a) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...a, sentMB: Math.round((sent / 1024 / 1024) * 10) / 10, ms: Math.round(performance.now() - started) });
      req.destroy();
    };
    const req = request(url, {
      method: "POST",
      agent: false,
      headers: { "Content-Type": "application/json", ...spec.headers, ...(spec.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(bytes) }) },
    });
    const timer = setTimeout(() => finish({ status: 0, text: "", retryAfter: null, error: `no answer within ${deadlineMs / 1000} s` }), deadlineMs);
    req.on("response", (res) => {
      const parts = [];
      res.on("data", (c) => parts.push(c));
      const end = () => finish({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8").slice(0, 500), retryAfter: res.headers["retry-after"] ?? null, error: null });
      res.on("end", end);
      res.on("error", end);
    });
    req.on("error", (e) => setTimeout(() => finish({ status: 0, text: "", retryAfter: null, error: e.message }), 200));
    const pump = () => {
      while (!done && sent < bytes) {
        const piece = bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, bytes - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

(async () => {
  const { url, specs, rounds, bytes, deadlineMs } = workerData;
  const answers = [];
  await Promise.all(
    specs.map(async (spec) => {
      for (let r = 0; r < rounds; r++) answers.push(await floodOne(url, spec, bytes, deadlineMs));
    }),
  );
  parentPort.postMessage(answers);
})();
