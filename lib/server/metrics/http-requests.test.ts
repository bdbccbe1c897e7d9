import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { installIngestFastPath } from "@/lib/server/event-stream/fast-path";
import { streamKeys } from "@/lib/server/event-stream/stream-cache";
import { installRequestBodyLimits } from "@/lib/server/http/request-body-limits";
import { installJsonConsole, jsonLogger, uninstallJsonConsole } from "@/lib/server/log/json-log";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { installRequestMetrics } from "./http-requests";
import { series } from "./registry";

/**
 * The hooks as instrumentation.ts installs them on Node's server — the body limits, the ingest's
 * fast path, then the metrics around both — with a plain handler standing in for Next: what the
 * inner hooks answer themselves (a delivery, a refused body) is counted and logged too.
 */
let close: () => Promise<void>;
let server: http.Server;
let base: string;
let signer: Webhook;

beforeAll(async () => {
  let alpha: DashboardOnReal["alpha"];
  ({ alpha, close } = await startDashboardOnReal());
  await connectEventStream(alpha);
  signer = new Webhook((await streamKeys("alpha"))!.keys[0]!.toString("base64"));
  installRequestBodyLimits();
  installIngestFastPath();
  installRequestMetrics();
  server = http.createServer((req, res) => (req.resume(), req.on("end", () => res.writeHead(200).end("next"))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await close();
});

const count = async (labels: Record<string, string>) =>
  (await series().httpRequests.get()).values.find((v) => Object.entries(labels).every(([k, val]) => (v.labels as Record<string, unknown>)[k] === val))?.value ?? 0;

describe("the request hook on Node's server", () => {
  it("counts and logs a delivery the ingest's fast path answers, with its project, never its body", async () => {
    const lines: string[] = [];
    installJsonConsole({ error: () => {}, warn: () => {}, info: () => {}, log: () => {}, debug: () => {} }, jsonLogger({ write: (l: string) => void lines.push(l) }));
    try {
      const labels = { route: "/api/ingest/[project]", method: "POST", status: "204" };
      const before = await count(labels);
      const body = JSON.stringify({ type: "email.sent", createdAt: new Date().toISOString(), data: { messageId: "msg_hook_1", to: ["ada@example.com"], subject: "Hi" } });
      const at = new Date();
      const res = await fetch(`${base}/api/ingest/alpha`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "webhook-id": "whd_hook_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signer.sign("whd_hook_1", at, body) },
      });
      expect(res.status).toBe(204);
      await expect.poll(() => count(labels)).toBe(before + 1);
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === "request");
      expect(logged).toEqual([expect.objectContaining({ route: "/api/ingest/[project]", method: "POST", status: 204, project: "alpha", userId: null })]);
      expect(lines.join("")).not.toContain("ada@example.com");
    } finally {
      uninstallJsonConsole();
    }
  });

  it("counts what reaches Next and a body refused before it, by route pattern", async () => {
    const page = { route: "/p/[project]/messages", method: "GET", status: "200" };
    const refused = { route: "/api/p/[project]/emails", method: "POST", status: "413" };
    const [pageBefore, refusedBefore] = [await count(page), await count(refused)];
    expect((await fetch(`${base}/p/alpha/messages?q=from:ada@example.com`)).status).toBe(200);
    const big = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/api/p/alpha/emails`, { method: "POST", headers: { "content-length": String(21 * 1024 * 1024), "content-type": "application/json" } }, (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
      req.end();
    });
    expect(big).toBe(413);
    await expect.poll(async () => [await count(page), await count(refused)]).toEqual([pageBefore + 1, refusedBefore + 1]);
  });
});

describe("a client gone before the answer", () => {
  it("is counted as aborted, not as Node's default 200", async () => {
    let arrived!: () => void;
    const atServer = new Promise<void>((r) => (arrived = r));
    const slow = http.createServer(() => arrived()); // never answers
    const hooked = { route: "/p/[project]/messages", method: "GET", status: "aborted" };
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const before = await count(hooked);
      const req = http.get(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/p/alpha/messages`);
      req.on("error", () => {});
      // Gone once the server has the request (a fixed pause could end before it arrived, on a busy machine).
      await atServer;
      req.destroy();
      await expect.poll(() => count(hooked)).toBe(before + 1);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
