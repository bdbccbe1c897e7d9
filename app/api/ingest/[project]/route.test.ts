import { Webhook } from "standardwebhooks";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { eventStreams, indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { useTestDb } from "@/lib/server/db/test-db";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { registerProject } from "@/lib/server/projects";
import { json, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { POST } from "./route";

const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
let dispose: () => Promise<void>;
let service: TestServer;
let n = 0;

beforeAll(async () => {
  // A fake service that hands out the signing secret when the dashboard creates its webhook.
  service = await startHttpServer((req, res) => {
    if (req.method === "POST" && req.url === "/v1/webhooks") {
      return json(res, 201, { id: "wh_1", url: JSON.parse(req.body).url, enabled: true, eventTypes: JSON.parse(req.body).eventTypes, signingSecret: SECRET, createdAt: new Date().toISOString() });
    }
    return json(res, 404, { error: { message: "not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  const project = await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false });
  await connectEventStream(project);
});
afterAll(async () => {
  await dispose();
  await service.close();
});

function payload(type: string, messageId: string, extra: Record<string, unknown> = {}, createdAt = new Date().toISOString()) {
  return JSON.stringify({
    type,
    createdAt,
    data: { messageId, project: "demo", direction: "outbound", from: "Shop <shop@acme.test>", to: ["Ada@Example.com"], subject: "Hi", status: "x", eventData: {}, ...extra },
  });
}

function signed(body: string, opts: { id?: string; at?: Date; secret?: string } = {}) {
  const id = opts.id ?? `whd_${++n}_${Math.random().toString(36).slice(2)}`;
  const at = opts.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(opts.secret ?? SECRET).sign(id, at, body),
  };
}

async function deliver(body: string, headers: Record<string, string>, project = "demo") {
  const req = new Request(`http://dash.test:3000/api/ingest/${project}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return POST(req, { params: Promise.resolve({ project }) });
}

async function messageRow(id: string) {
  const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, id));
  return row;
}
async function eventCount(id: string) {
  return (await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, id))).length;
}

describe("POST /api/ingest/[project]", () => {
  it("stored the signing secret sealed, not in clear", async () => {
    const [row] = await (await db()).select().from(eventStreams);
    expect(row.url).toBe("http://dash.test:3000/api/ingest/demo");
    expect(row.secretCiphertext).not.toContain(SECRET.slice(6, 20));
    const created = JSON.parse(service.requests.find((r) => r.url === "/v1/webhooks")!.body);
    expect(created.eventTypes).toContain("inbound_received");
    expect(created.eventTypes).toContain("delivery_delayed");
  });

  it("accepts a valid signature and indexes the message", async () => {
    const body = payload("sent", "m_valid");
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(204);
    const row = await messageRow("m_valid");
    expect(row).toMatchObject({ status: "sent", source: "webhook", direction: "outbound", from: "Shop <shop@acme.test>" });
  });

  it("refuses a body with one flipped byte", async () => {
    const body = payload("sent", "m_flipped");
    const headers = signed(body);
    const flipped = body.replace('"sent"', '"sens"');
    expect((await deliver(flipped, headers)).status).toBe(401);
    expect(await messageRow("m_flipped")).toBeUndefined();
  });

  it("refuses a re-serialised body (same JSON, other bytes)", async () => {
    const body = payload("sent", "m_reser");
    const headers = signed(body);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect((await deliver(reserialised, headers)).status).toBe(401);
    expect(await eventCount("m_reser")).toBe(0);
  });

  it("refuses stale and future timestamps", async () => {
    const body = payload("sent", "m_time");
    expect((await deliver(body, signed(body, { at: new Date(Date.now() - 10 * 60_000) }))).status).toBe(401);
    expect((await deliver(body, signed(body, { at: new Date(Date.now() + 10 * 60_000) }))).status).toBe(401);
    expect(await eventCount("m_time")).toBe(0);
  });

  it("refuses another secret's signature, and accepts when a second signature in the header is valid", async () => {
    const body = payload("sent", "m_multi");
    const wrong = signed(body, { secret: `whsec_${Buffer.from("another-secret-another-secret-12").toString("base64")}` });
    expect((await deliver(body, wrong)).status).toBe(401);
    const right = signed(body, { id: wrong["webhook-id"], at: new Date(Number(wrong["webhook-timestamp"]) * 1000) });
    const both = { ...right, "webhook-signature": `${wrong["webhook-signature"]} ${right["webhook-signature"]}` };
    expect((await deliver(body, both)).status).toBe(204);
    expect(await eventCount("m_multi")).toBe(1);
  });

  it("refuses missing headers and unknown projects without a 500", async () => {
    const body = payload("sent", "m_nohdr");
    expect((await deliver(body, {})).status).toBe(401);
    expect((await deliver(body, signed(body), "nobody")).status).toBe(401);
  });

  it("takes the same webhook-id once, also when delivered concurrently", async () => {
    const body = payload("delivery", "m_dup");
    const headers = signed(body);
    expect((await deliver(body, headers)).status).toBe(204);
    expect((await deliver(body, headers)).status).toBe(204);
    const body2 = payload("sent", "m_dup_conc");
    const headers2 = signed(body2);
    const results = await Promise.all(Array.from({ length: 8 }, () => deliver(body2, headers2)));
    expect(results.every((r) => r.status === 204)).toBe(true);
    expect(await eventCount("m_dup")).toBe(1);
    expect(await eventCount("m_dup_conc")).toBe(1);
  });

  it("stores unknown event types without changing the status", async () => {
    const first = payload("sent", "m_unknown");
    await deliver(first, signed(first));
    const odd = payload("teleported", "m_unknown");
    expect((await deliver(odd, signed(odd))).status).toBe(204);
    expect((await messageRow("m_unknown"))!.status).toBe("sent");
    expect(await eventCount("m_unknown")).toBe(2);
  });

  it("accepts events out of order and keeps the final status", async () => {
    const t0 = Date.now();
    const order = [["delivery", 3], ["queued", 0], ["sent", 2], ["sending", 1]] as const;
    for (const [type, step] of order) {
      const body = payload(type, "m_order", {}, new Date(t0 + step * 1000).toISOString());
      expect((await deliver(body, signed(body))).status).toBe(204);
    }
    const row = (await messageRow("m_order"))!;
    expect(row.status).toBe("delivered");
    expect(row.createdAt.getTime()).toBe(t0);
    expect(row.lastEventAt!.getTime()).toBe(t0 + 3000);
    expect(await eventCount("m_order")).toBe(4);
  });

  it("indexes inbound mail with its text and html", async () => {
    const body = payload("inbound_received", "m_in", { direction: "inbound", from: "ada@example.com", to: ["support@acme.test"], text: "Hello", html: "<p>Hello</p>" });
    expect((await deliver(body, signed(body))).status).toBe(204);
    expect(await messageRow("m_in")).toMatchObject({ direction: "inbound", status: "received", text: "Hello", html: "<p>Hello</p>" });
  });

  it("answers 400 naming the field for a signed but malformed payload", async () => {
    const body = JSON.stringify({ type: "sent", createdAt: new Date().toISOString(), data: { project: "demo" } });
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^data\.messageId/);
  });
});
