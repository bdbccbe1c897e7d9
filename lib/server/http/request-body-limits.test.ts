import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { EnvError, parseEnv } from "@/lib/server/env";
import { bytesInFlight, MIN_HOLD_BYTES, poolsInUse } from "./inflight-budget";
import { networkOf } from "@/lib/net/ip-ranges";
import { LINGER_BYTES } from "./node-answer";
import { installRequestBodyLimits, requestLimits } from "./request-body-limits";
import { setTestEnv } from "@/lib/server/test-helpers";

/**
 * The request-body limits on a real HTTP server, installed as at start. The server's own
 * handler stands in for Next: it reads each body to its end and answers with its length
 * (`/slow-reader` first waits a second, as a route behind a slow guard would).
 */
const MB = 1024 * 1024;
let server: http.Server;
let base: string;
let port: number;
let reached = 0;

beforeAll(async () => {
  setTestEnv();
  installRequestBodyLimits();
  installRequestBodyLimits(); // idempotent
  server = http.createServer((req, res) => {
    reached++;
    let bytes = 0;
    const read = () => {
      req.on("data", (c: Buffer) => (bytes += c.length));
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ bytes })));
    };
    req.on("error", () => {});
    if (req.url === "/slow-reader") setTimeout(read, 1_000);
    else read();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  setTestEnv();
});

/** The test's environment, with the request-body limits as given (defaults otherwise); a long window, so trickles last the test unless set. */
function limits(extra: Record<string, string> = {}) {
  const defaults = { REQUEST_INFLIGHT_BYTES: undefined, REQUEST_INFLIGHT_SMALL_BYTES: undefined, REQUEST_INFLIGHT_BYTES_PER_ADDRESS: undefined, REQUEST_BODY_WINDOW_MS: "60000", TRUSTED_PROXIES: undefined };
  setTestEnv({ ...defaults, ...extra });
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; json: { bytes?: number; error?: { code: string; message: string } } };

/**
 * A POST that declares `declared` bytes and sends `send` of them now; `rest()` sends the
 * remainder and `abort()` drops the connection. `answer` settles with whatever comes back.
 */
function upload(path: string, opts: { declared?: number; send?: number; from?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  if (opts.declared !== undefined) headers["content-length"] = String(opts.declared);
  const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers, localAddress: opts.from, agent: false });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : {} }));
    });
    req.on("error", reject);
  });
  answer.catch(() => {});
  if (opts.send) req.write(Buffer.alloc(opts.send, "a"));
  return {
    answer,
    rest: () => req.end(Buffer.alloc((opts.declared ?? 0) - (opts.send ?? 0), "a")),
    abort: () => req.destroy(),
    raw: req,
  };
}

/** Answered within `ms`, or the test fails: a refusal must not wait for the body. */
function within<T>(p: Promise<T>, ms = 2_000): Promise<T> {
  return Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

describe("request bodies before Next", () => {
  it("a declared Content-Length over MAX_REQUEST_BYTES is a 413 at once, unread; what still comes is dropped, up to LINGER_BYTES, then the connection closes", async () => {
    const before = reached;
    // A raw connection, so the sender goes on sending after the answer (Node's client would stop).
    const socket = net.connect(port, "127.0.0.1");
    let sent = 0;
    let sentWhenAnswered = -1;
    let answer = "";
    socket.on("data", (d: Buffer) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent;
      answer += d.toString();
    });
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(`POST /api/p/demo/sends HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * MB}\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, "a");
    const pump = () => {
      while (!socket.destroyed && sent < 100 * MB) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    pump();
    await within(closed, 10_000);

    expect(answer).toMatch(/^HTTP\/1.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).error).toMatchObject({ code: "payload_too_large", message: expect.stringContaining("20 MB") });
    expect(sentWhenAnswered).toBeLessThan(16 * MB);
    // Taken and dropped (so the sender could read its answer), then cut off: not all 100 MB.
    expect(sent).toBeGreaterThan(LINGER_BYTES);
    expect(sent).toBeLessThan(LINGER_BYTES + 32 * MB);
    expect(reached).toBe(before);
    expect(bytesInFlight("requests")).toBe(0);
  });

  it("a chunked body is a 411 unread, also on a path with a % escape (so none can outgrow Next's proxy copy)", async () => {
    const before = reached;
    for (const path of ["/api/p/demo/sends", "/api/x%41", "/login"]) {
      const chunked = upload(path, { send: 64 * 1024 });
      const res = await within(chunked.answer);
      chunked.abort();
      expect(res.status, path).toBe(411);
      expect(res.json.error).toMatchObject({ code: "length_required", message: expect.stringContaining("Content-Length") });
    }
    expect(reached).toBe(before);
  });

  it("requests without a body, and bodies within the limits, go on to Next whole and hold nothing after", async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const res = await fetch(`${base}/api/x%41`, { method: "POST", body: new Uint8Array(12 * MB) });
    expect(await res.json()).toEqual({ bytes: 12 * MB });
    expect(bytesInFlight("requests")).toBe(0);
    expect(poolsInUse()).toBe(0);
  });

  it("holds what has arrived, never what is declared, against its address's share: past it a 429 with Retry-After, mid-body too; given back when answered or dropped", async () => {
    limits({ REQUEST_INFLIGHT_BYTES: String(48 * MB), REQUEST_INFLIGHT_SMALL_BYTES: String(8 * MB), REQUEST_INFLIGHT_BYTES_PER_ADDRESS: String(20 * MB) });
    try {
      // 127.0.0.1 starts a 20 MB upload and sends 1 KB of it: it holds 16 KB, not 20 MB.
      const first = upload("/api/p/demo/sends", { declared: 20 * MB, send: 1024, from: "127.0.0.1" });
      await expect.poll(() => bytesInFlight("requests")).toBe(MIN_HOLD_BYTES);
      // Then most of it: held as it comes.
      first.raw.write(Buffer.alloc(19 * MB, "a"));
      await expect.poll(() => bytesInFlight("requests"), { timeout: 5_000 }).toBe(19 * MB + 1024);

      // The same address, another large body: it fits at its headers, not once 1 MB more has come.
      const again = await within(upload("/api/p/demo/sends", { declared: 2 * MB, send: 2 * MB, from: "127.0.0.1" }).answer);
      expect(again.status).toBe(429);
      expect(again.headers["retry-after"]).toBe("5");
      expect(again.json.error).toMatchObject({ code: "request_bodies_busy", message: expect.stringMatching(/20 MB at once \(REQUEST_INFLIGHT_BYTES_PER_ADDRESS\)/) });
      await expect.poll(() => bytesInFlight("requests")).toBe(19 * MB + 1024);
      // A small body from that address is held apart from its large ones: taken.
      const small = upload("/api/p/demo/sends", { declared: 300, from: "127.0.0.1" });
      small.rest();
      expect((await within(small.answer)).json).toEqual({ bytes: 300 });

      // Another address gets in.
      const other = upload("/api/p/demo/sends", { declared: 20 * MB, send: 1024, from: "127.0.0.2" });
      await expect.poll(() => bytesInFlight("requests")).toBe(19 * MB + 1024 + MIN_HOLD_BYTES);

      // The first finishes: answered whole, its hold given back.
      first.raw.end(Buffer.alloc(MB - 1024, "a"));
      expect((await within(first.answer, 10_000)).json).toEqual({ bytes: 20 * MB });
      await expect.poll(() => bytesInFlight("requests")).toBe(MIN_HOLD_BYTES);
      // The other drops its connection: its hold is given back too, and no pool is left behind.
      other.abort();
      await expect.poll(() => bytesInFlight("requests")).toBe(0);
      expect(poolsInUse()).toBe(0);
    } finally {
      limits();
    }
  });

  it("a sign-in is taken while strangers hold large bodies open: their declared lengths hold nothing, and REQUEST_INFLIGHT_SMALL_BYTES is kept for bodies of at most 64 KB", async () => {
    limits({ REQUEST_INFLIGHT_BYTES: String(24 * MB), REQUEST_INFLIGHT_SMALL_BYTES: String(4 * MB), REQUEST_INFLIGHT_BYTES_PER_ADDRESS: String(20 * MB) });
    const signIn = async (from: string) => {
      const req = upload("/login", { declared: 300, from });
      req.rest();
      return within(req.answer, 5_000);
    };
    const open: ReturnType<typeof upload>[] = [];
    try {
      // The review's attack: from two addresses, POSTs to /login declaring the whole budget and
      // trickling. Before the fix, they held it all, and every other body was a 429.
      open.push(upload("/login", { declared: 20 * MB, send: 1024, from: "127.0.0.2" }));
      open.push(upload("/login", { declared: 4 * MB, send: 1024, from: "127.0.0.3" }));
      await expect.poll(() => bytesInFlight("requests")).toBeGreaterThanOrEqual(2 * MIN_HOLD_BYTES);
      expect((await signIn("127.0.0.4")).json).toEqual({ bytes: 300 });
      expect(bytesInFlight("requests")).toBe(2 * MIN_HOLD_BYTES);

      // Now they send for real: the large bodies fill all they may (24 MB less the 4 MB kept),
      // and a large body that does not fit is a 429 naming the limit, at its headers or at the
      // chunk that did not fit.
      open[0]!.raw.write(Buffer.alloc(20 * MB - 24 * 1024 - 1024, "a"));
      await expect.poll(() => bytesInFlight("requests-large"), { timeout: 5_000 }).toBe(20 * MB - 24 * 1024 + MIN_HOLD_BYTES);
      const refused = await within(upload("/login", { declared: 100 * 1024, send: 1024, from: "127.0.0.5" }).answer);
      expect(refused.status).toBe(429);
      expect(refused.json.error?.message).toMatch(/20 MB of request bodies over 64 KB at once \(REQUEST_INFLIGHT_BYTES less REQUEST_INFLIGHT_SMALL_BYTES/);
      open[1]!.raw.write(Buffer.alloc(MB, "a"));
      expect((await within(open[1]!.answer, 5_000)).status).toBe(429);
      // A sign-in still gets in.
      expect((await signIn("127.0.0.4")).json).toEqual({ bytes: 300 });

      // Nor can one address take the kept room with small bodies: an eighth of it each (512 KB = 32 of them).
      for (let i = 0; i < 32; i++) open.push(upload("/login", { declared: 60 * 1024, send: 1, from: "127.0.0.6" }));
      await expect.poll(() => bytesInFlight("requests"), { timeout: 5_000 }).toBe(20 * MB - 24 * 1024 + 32 * MIN_HOLD_BYTES);
      const more = await within(upload("/login", { declared: 300, send: 1, from: "127.0.0.6" }).answer);
      expect(more.status).toBe(429);
      expect(more.json.error?.message).toMatch(/512 KB of small bodies at once \(an eighth of REQUEST_INFLIGHT_SMALL_BYTES\)/);
      expect((await signIn("127.0.0.4")).json).toEqual({ bytes: 300 });
    } finally {
      open.forEach((o) => o.abort());
      limits();
    }
    await expect.poll(() => bytesInFlight("requests")).toBe(0);
  });

  it("behind a TRUSTED_PROXIES proxy, the share is the forwarded client's (an IPv6 client's /64)", async () => {
    limits({ TRUSTED_PROXIES: "127.0.0.1", REQUEST_INFLIGHT_BYTES: String(64 * MB), REQUEST_INFLIGHT_BYTES_PER_ADDRESS: String(20 * MB) });
    const via = (client: string) => ({ "x-forwarded-for": client });
    try {
      const first = upload("/api/p/demo/sends", { declared: 20 * MB, send: 20 * MB - 100, headers: via("2001:db8:0:1::1") });
      await expect.poll(() => bytesInFlight("requests"), { timeout: 5_000 }).toBe(20 * MB - 100);
      const sameNetwork = await within(upload("/api/p/demo/sends", { declared: MB, send: MB, headers: via("2001:db8:0:1::2") }).answer);
      expect(sameNetwork.status).toBe(429);
      const otherNetwork = upload("/api/p/demo/sends", { declared: MB, headers: via("2001:db8:0:2::1") });
      otherNetwork.rest();
      expect((await within(otherNetwork.answer)).status).toBe(200);
      first.abort();
      await expect.poll(() => bytesInFlight("requests")).toBe(0);
    } finally {
      limits();
    }
    expect(networkOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(networkOf("2001:DB8:0:1:ffff::1%eth0")).toBe("2001:db8:0:1::/64");
    expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("a body must keep coming at REQUEST_BODY_MIN_RATE: a trickle is a 408 naming the limit, and holds nothing after", async () => {
    limits({ REQUEST_BODY_WINDOW_MS: "300" });
    let drip: NodeJS.Timeout | undefined;
    try {
      const started = Date.now();
      const slow = upload("/api/p/demo/sends", { declared: 10 * 1024, send: 1 });
      let at = 1;
      drip = setInterval(() => void (at < 200 && !slow.raw.destroyed && slow.raw.write("a", () => at++)), 50);
      const res = await within(slow.answer, 5_000);
      expect(res.status).toBe(408);
      expect(res.headers.connection).toBe("close");
      expect(res.json.error).toMatchObject({ code: "request_timeout", message: expect.stringMatching(/slower than 32 KB a second over 0.3 s \(REQUEST_BODY_MIN_RATE\)/) });
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect.poll(() => bytesInFlight("requests")).toBe(0);

      // A body sent at once is not cut off, even when the handler is slow to read it.
      const prompt = upload("/slow-reader", { declared: 512 * 1024 });
      prompt.rest();
      expect((await within(prompt.answer, 5_000)).json).toEqual({ bytes: 512 * 1024 });
    } finally {
      clearInterval(drip);
      limits();
    }
  });

  it("defaults: an address's share of large bodies an eighth of the total but at least 20 MB, an eighth kept for small bodies; set so the largest body cannot fit, the variable is named", () => {
    const env = { SERVICE_URL: "http://127.0.0.1:9", SERVICE_API_KEY: "k", AUTH_SECRET: "x".repeat(32) };
    expect(parseEnv(env)).toMatchObject({ REQUEST_INFLIGHT_BYTES: 64 * MB, REQUEST_BODY_MIN_RATE: 32 * 1024, REQUEST_BODY_WINDOW_MS: 10_000 });
    limits();
    expect(requestLimits().budget).toEqual({ name: "requests", total: 64 * MB, reserved: 8 * MB, perAddress: 20 * MB, smallPerAddress: MB });
    limits({ REQUEST_INFLIGHT_BYTES: String(240 * MB) });
    expect(requestLimits().budget).toMatchObject({ reserved: 30 * MB, perAddress: 30 * MB });
    limits({ REQUEST_INFLIGHT_BYTES: String(24 * MB) });
    expect(requestLimits().budget).toMatchObject({ reserved: 3 * MB, perAddress: 20 * MB });
    limits();
    for (const [bad, name] of [
      [{ REQUEST_INFLIGHT_BYTES_PER_ADDRESS: String(16 * MB) }, "REQUEST_INFLIGHT_BYTES_PER_ADDRESS"],
      [{ REQUEST_INFLIGHT_BYTES: String(24 * MB), REQUEST_INFLIGHT_BYTES_PER_ADDRESS: String(32 * MB) }, "REQUEST_INFLIGHT_BYTES_PER_ADDRESS"],
      [{ REQUEST_INFLIGHT_BYTES: String(16 * MB) }, "REQUEST_INFLIGHT_BYTES"],
      [{ REQUEST_INFLIGHT_BYTES: String(24 * MB), REQUEST_INFLIGHT_SMALL_BYTES: String(5 * MB) }, "REQUEST_INFLIGHT_SMALL_BYTES"],
    ] as const) {
      expect(() => parseEnv({ ...env, ...bad })).toThrow(EnvError);
      expect(() => parseEnv({ ...env, ...bad })).toThrow(name);
    }
  });
});
