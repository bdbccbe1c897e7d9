import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, like, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { eventStreams, indexedEvents } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/server/security-headers";
import { registerProject } from "@/lib/server/projects";
import type { Project } from "@/lib/server/access";
import { json, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { connectEventStream } from "./connect";
import { installIngestFastPath } from "./fast-path";
import { ingestRoute } from "./ingest-response";
import { sealSecret } from "./secret-box";
import { forgetStreamKeys } from "./stream-cache";

/**
 * The ingest's fast path on a real HTTP server: what it takes (POST /api/ingest/<project>)
 * it answers as the route would, with the API headers Next would add; everything else reaches
 * the server's own handler (standing in for Next here), which answers "next".
 */
const secretOf = (text: string) => `whsec_${Buffer.from(text).toString("base64")}`;
let handedOut = secretOf("first-secret-first-secret-first!");
let service: TestServer;
let dispose: () => Promise<void>;
let server: http.Server;
let base: string;
let n = 0;
let project: Project;

beforeAll(async () => {
  service = await startHttpServer((req, res) => {
    if (req.method === "POST" && req.url === "/v1/webhooks") {
      return json(res, 201, { id: `wh_${++n}`, url: JSON.parse(req.body).url, enabled: true, eventTypes: JSON.parse(req.body).eventTypes, signingSecret: handedOut, createdAt: new Date().toISOString() });
    }
    return json(res, 404, { error: { message: "not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "fast" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  await connectEventStream(project);
  installIngestFastPath();
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(299, { "content-type": "text/plain" }).end("next"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dispose();
  await service.close();
});

function delivery(messageId: string, opts: { id?: string; secret?: string } = {}) {
  const body = JSON.stringify({ type: "sent", createdAt: new Date().toISOString(), data: { messageId, to: ["ada@example.com"], subject: "Hi" } });
  const id = opts.id ?? `whd_${messageId}_${++n}`;
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(opts.secret ?? handedOut).sign(id, at, body),
  };
  return { body, headers };
}

async function post(path: string, d: { body: string; headers: Record<string, string> }) {
  return fetch(`${base}${path}`, { method: "POST", body: d.body, headers: d.headers });
}

async function events(messageId: string) {
  return (await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, messageId))).length;
}

describe("the ingest fast path", () => {
  it("records a signed delivery and answers 204 with the API's headers; a duplicate webhook-id is taken once", async () => {
    const d = delivery("m_fast");
    const [first, again] = await Promise.all([post("/api/ingest/fast", d), post("/api/ingest/fast", d)]);
    expect([first.status, again.status]).toEqual([204, 204]);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("content-security-policy")).toBe(API_CONTENT_SECURITY_POLICY);
    for (const { key, value } of STATIC_SECURITY_HEADERS) expect(first.headers.get(key)).toBe(value);
    expect(await events("m_fast")).toBe(1);
  });

  it("records deliveries that arrive together in one transaction, not one each (the group commit gathers them)", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post("/api/ingest/fast", delivery(`m_together_${i}`))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(204));
    // Rows one transaction inserted share its id (xmin). Recorded as they arrived, each was alone (PGlite never yields mid-transaction).
    const [row] = await (await db())
      .select({ events: sql<number>`count(*)::int`, transactions: sql<number>`count(distinct xmin::text)::int` })
      .from(indexedEvents)
      .where(like(indexedEvents.messageId, "m_together_%"));
    expect(row!.events).toBe(10);
    expect(row!.transactions).toBeLessThan(10);
  });

  it("answers what the route answers: a bad signature, an unknown project, an unusable delivery", async () => {
    const cases = [
      { project: "fast", d: delivery("m_bad", { secret: secretOf("not-the-secret-not-the-secret-12") }) },
      { project: "nobody", d: delivery("m_nobody") },
      { project: "fast", d: (() => { const d = delivery("x"); const body = JSON.stringify({ type: "sent", data: {} }); return { body, headers: { ...d.headers, "webhook-signature": new Webhook(handedOut).sign(d.headers["webhook-id"], new Date(Number(d.headers["webhook-timestamp"]) * 1000), body) } }; })() },
    ];
    for (const { project, d } of cases) {
      const fast = await post(`/api/ingest/${project}`, d);
      const viaRoute = await ingestRoute(new Request(`http://dash.test:3000/api/ingest/${project}`, { method: "POST", body: d.body, headers: d.headers }), { params: Promise.resolve({ project }) });
      expect(fast.status).toBe(viaRoute.status);
      expect(await fast.text()).toBe(await viaRoute.text());
      expect(fast.headers.get("content-type")).toBe(viaRoute.headers.get("content-type"));
    }
    expect(await events("m_bad")).toBe(0);
  });

  it("refuses a body over the limit, declared or chunked, with 413 and closes the connection", async () => {
    const declared = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${base}/api/ingest/fast`, { method: "POST", headers: { "content-length": String(MAX_REQUEST_BYTES + 1) } }, resolve);
      req.on("error", reject);
      req.write("{");
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.headers.connection).toBe("close");
    declared.resume();

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/api/ingest/fast`, { method: "POST" }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", () => {});
      const chunk = Buffer.alloc(1024 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_REQUEST_BYTES + chunk.length) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
      setTimeout(() => reject(new Error("no answer")), 20_000).unref();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe("payload_too_large");
  });

  it("leaves other methods and paths to the server (Next)", async () => {
    const d = delivery("m_other");
    expect(await (await fetch(`${base}/api/ingest/fast`)).text()).toBe("next");
    expect(await (await post("/api/ingest/f%61st", d)).text()).toBe("next");
    expect(await (await post("/api/ingest/fast/", d)).text()).toBe("next");
    expect(await (await post("/api/ingest/fast/more", d)).text()).toBe("next");
    expect(await events("m_other")).toBe(0);
  });

  it("after the stream is connected again with a new secret, the old secret is refused and the new one taken", async () => {
    const old = handedOut;
    expect((await post("/api/ingest/fast", delivery("m_before"))).status).toBe(204);
    // Disconnected (as deleteWebhook does) and connected again: the service hands out another secret.
    await (await db()).delete(eventStreams).where(eq(eventStreams.projectId, project.id));
    forgetStreamKeys("fast");
    handedOut = secretOf("second-secret-second-secret-two!");
    await connectEventStream(project);
    expect((await post("/api/ingest/fast", delivery("m_old", { secret: old }))).status).toBe(401);
    expect((await post("/api/ingest/fast", delivery("m_new"))).status).toBe(204);
    expect([await events("m_old"), await events("m_new")]).toEqual([0, 1]);
  });

  it("notices a secret another instance rotated: the old one is refused once the keys are read again", async () => {
    const old = handedOut;
    expect((await post("/api/ingest/fast", delivery("m_cached"))).status).toBe(204);
    // Another instance reconnected: the row changed under this process's cached keys.
    handedOut = secretOf("third-secret-third-secret-third!");
    await (await db()).update(eventStreams).set({ secretCiphertext: sealSecret(handedOut) });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_000 });
    try {
      expect((await post("/api/ingest/fast", delivery("m_rotated"))).status).toBe(204);
      expect((await post("/api/ingest/fast", delivery("m_stale", { secret: old }))).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    expect([await events("m_rotated"), await events("m_stale")]).toEqual([1, 0]);
  });
});
