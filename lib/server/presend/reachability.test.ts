import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicIp as isPublicAddress } from "@/contract/net/destination";
import type { ServerResponse } from "node:http";
import { createSlots } from "@/lib/server/limits/slots";
import { setTestEnv, startHttpServer, type RecordedRequest, type TestServer } from "@/lib/server/test-helpers";
import { checkReachability, linkCheckSlots } from "./reachability";

let server: TestServer;
/** Paths answered 204 after a delay, each counting how many of its requests were in flight at most. */
const held = { delayMs: 40, now: 0, max: 0 };
const slow = { delayMs: 150, now: 0, max: 0 };
const LOCAL = { policy: { allowPrivate: true } };

beforeAll(async () => {
  setTestEnv();
  server = await startHttpServer((req, res) => void answer(req, res));
});
afterAll(() => server.close());

function answer(req: RecordedRequest, res: ServerResponse) {
  const path = req.url.split("?")[0];
  if (path === "/ok") return res.writeHead(200).end("fine");
  if (path === "/missing") return res.writeHead(404, "Not Found").end();
  if (path === "/moved") return res.writeHead(301, { Location: "/ok" }).end();
  if (path === "/no-head") {
    if (req.method === "HEAD") return res.writeHead(405).end();
    // A body that never ends: the check must answer from the status alone.
    res.writeHead(200, { "Content-Type": "application/octet-stream" });
    const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 5);
    res.on("close", () => clearInterval(timer));
    return;
  }
  if (path === "/never") return; // accepts, never answers
  if (path === "/slow") return answerLater(slow, res);
  if (path === "/held") return answerLater(held, res);
  res.writeHead(500).end();
}

function answerLater(counted: typeof held, res: ServerResponse) {
  counted.now++;
  counted.max = Math.max(counted.max, counted.now);
  setTimeout(() => {
    counted.now--;
    res.writeHead(204).end();
  }, counted.delayMs);
}

describe("link reachability", () => {
  it("reports each link's status; a 404 is a problem, a redirect is reported with its target and not followed", async () => {
    const [ok, missing, moved] = await checkReachability([`${server.url}/ok`, `${server.url}/missing`, `${server.url}/moved`], LOCAL);
    expect(ok).toMatchObject({ ok: true, status: 200, problem: null, location: null });
    expect(missing).toMatchObject({ ok: false, status: 404, problem: "It answered 404 Not Found: readers get an error page." });
    expect(moved).toMatchObject({ ok: true, status: 301, location: `${server.url}/ok` });
    expect(server.requests.filter((r) => r.url === "/ok").map((r) => r.method)).toEqual(["HEAD"]);
  });

  it("falls back to GET when HEAD is refused, without reading the body", async () => {
    const [result] = await checkReachability([`${server.url}/no-head`], LOCAL);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(server.requests.filter((r) => r.url === "/no-head").map((r) => r.method)).toEqual(["HEAD", "GET"]);
  });

  it("gives up on a link that does not answer, at its timeout", async () => {
    const [result] = await checkReachability([`${server.url}/never`], { ...LOCAL, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: null, problem: "It did not answer within 0.3 s." });
  });

  it("checks a few links at a time and at most 50", async () => {
    const urls = Array.from({ length: 60 }, (_, i) => `${server.url}/held?n=${i}`);
    const results = await checkReachability(urls, { ...LOCAL, concurrency: 3 });
    expect(results).toHaveLength(50);
    expect(results.every((r) => r.ok && r.status === 204)).toBe(true);
    expect(held.max).toBe(3);
  });

  it("keeps the process's requests in flight under its slots, across checks running at once", async () => {
    slow.max = 0;
    const slots = createSlots(4);
    const checks = Array.from({ length: 5 }, (_, c) => checkReachability(Array.from({ length: 6 }, (_, i) => `${server.url}/slow?c=${c}&i=${i}`), { ...LOCAL, slots }));
    const results = (await Promise.all(checks)).flat();
    expect(results.every((r) => r.ok)).toBe(true);
    // Five checks of six links at once each: 30 at once without the shared bound.
    expect(slow.max).toBe(4);
    expect(slots.stats()).toEqual({ inUse: 0, waiting: 0, limit: 4 });
  });

  it("stops a whole check at its deadline: links not reached by then are reported as not checked", async () => {
    const urls = Array.from({ length: 8 }, (_, i) => `${server.url}/never?i=${i}`);
    const started = Date.now();
    const results = await checkReachability(urls, { ...LOCAL, concurrency: 2, timeoutMs: 5000, deadlineMs: 400 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(results.slice(0, 2).map((r) => r.problem)).toEqual(["It did not answer within 0.4 s.", "It did not answer within 0.4 s."]);
    expect(results.slice(2).every((r) => r.problem === "Not checked: a link check may take 0.4 s in all, and the time was up before this link's turn.")).toBe(true);
  });

  it("shares one set of slots per process, sized by LINK_CHECK_MAX_IN_FLIGHT", () => {
    expect(linkCheckSlots()).toBe(linkCheckSlots());
    expect(linkCheckSlots().stats().limit).toBe(24);
  });

  it("refuses a loopback address under the default policy, without connecting", async () => {
    const before = server.requests.length;
    const [result] = await checkReachability([`${server.url}/ok`]);
    expect(result!.ok).toBe(false);
    expect(result!.problem).toMatch(/^Not checked: 127\.0\.0\.1 is a loopback address \(this machine\), not a public address\./);
    expect(server.requests.length).toBe(before);
  });

  it("says so when a domain does not resolve", async () => {
    const [result] = await checkReachability(["https://no-such-host.invalid/"]);
    expect(result).toMatchObject({ ok: false, status: null, problem: "Its domain does not resolve (no DNS record), so the link cannot work." });
  });
});

describe("public addresses", () => {
  it.each([
    ["127.0.0.1", false], ["10.1.2.3", false], ["172.20.0.1", false], ["192.168.1.1", false], ["169.254.169.254", false], ["100.64.0.1", false],
    ["0.0.0.0", false], ["::1", false], ["fe80::1", false], ["fd00::1", false], ["::ffff:127.0.0.1", false], ["::ffff:7f00:1", false], ["64:ff9b::10.0.0.1", false],
    ["8.8.8.8", true], ["93.184.216.34", true], ["2606:4700:4700::1111", true], ["::ffff:8.8.8.8", true], ["not an ip", false],
  ])("%s public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
