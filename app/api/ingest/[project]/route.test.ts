import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { eventStreams, indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { connectEventStream } from "@/lib/server/event-stream/connect";
import { flushDeliveryLog, readDeliveryLog } from "@/lib/server/event-stream/delivery-log";
import { readStreamHealth, resetStreamHealthMemory } from "@/lib/server/event-stream/health";
import { getStreamStatus } from "@/lib/server/event-stream/status";
import { registerProject } from "@/lib/server/projects";
import { json, type TestServer } from "@/lib/server/test-helpers";
import { POST } from "./route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";

const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
/** The second project's service hands out its secret without the `whsec_` prefix. */
const BARE_SECRET = Buffer.from("fedcba9876543210fedcba9876543210").toString("base64");
let close: () => Promise<void>;
let service: TestServer;
let n = 0;
let demoId: string;
let otherId: string;
let quietId: string;

beforeAll(async () => {
  // A fake service that hands out the signing secret when the dashboard creates its webhook.
  ({ service, close } = await startDashboardOnFake((req, res) => {
    if (req.method === "POST" && req.url === "/v1/webhooks") {
      const other = req.headers["x-service-product"] === "other";
      return json(res, 201, { id: other ? "wh_2" : "wh_1", url: JSON.parse(req.body).url, enabled: true, eventTypes: JSON.parse(req.body).eventTypes, signingSecret: other ? BARE_SECRET : SECRET, createdAt: new Date().toISOString() });
    }
    return json(res, 404, { error: { message: "not found", code: "not_found" } });
  }, { PUBLIC_URL: "http://dash.test:3000" }));
  const project = await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false });
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false });
  const quiet = await registerProject({ externalId: "quiet" }, SYSTEM_ACTOR, { checkWithService: false });
  await connectEventStream(project);
  await connectEventStream(other);
  await connectEventStream(quiet);
  demoId = project.id;
  otherId = other.id;
  quietId = quiet.id;
});
afterAll(() => close());

function payload(type: string, messageId: string, extra: Record<string, unknown> = {}, createdAt = new Date().toISOString()) {
  return JSON.stringify({
    type,
    createdAt,
    data: { messageId, project: "demo", direction: "outbound", from: "Shop <shop@acme.test>", to: ["Ada@Example.com"], subject: "Hi", status: "x", eventData: {}, ...extra },
  });
}

function signed(body: string, opts: { id?: string; at?: Date; secret?: string; prefix?: "webhook" | "svix" } = {}) {
  const id = opts.id ?? `whd_${++n}_${Math.random().toString(36).slice(2)}`;
  const at = opts.at ?? new Date();
  const p = opts.prefix ?? "webhook";
  return {
    [`${p}-id`]: id,
    [`${p}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
    [`${p}-signature`]: new Webhook(opts.secret ?? SECRET).sign(id, at, body),
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
async function queuedReads(id: string) {
  return (await (await db()).select().from(messageRereads).where(eq(messageRereads.messageId, id))).length;
}

describe("POST /api/ingest/[project]", () => {
  it("stored the signing secret sealed, not in clear", async () => {
    // demo's row: the table holds other's too, in no set order (on Postgres an update moves a row).
    const [row] = await (await db()).select().from(eventStreams).where(eq(eventStreams.projectId, demoId));
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

  it("acknowledges a signed payload without a message id (202), with the reason, and indexes nothing", async () => {
    const before = await readStreamHealth(demoId);
    const body = JSON.stringify({ type: "sent", createdAt: new Date().toISOString(), data: { project: "demo" } });
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(202);
    expect((await res.json()).reason).toMatch(/^no message id in the payload/);
    const after = await readStreamHealth(demoId);
    expect(after.unusableCount - before.unusableCount).toBe(1);
    expect(after.acceptedCount).toBe(before.acceptedCount);
    expect(after.lastReason).toMatch(/^no message id in the payload .*its fields: type, createdAt, data/);
    expect(after.lastUnusableAt!.getTime()).toBeGreaterThanOrEqual(after.lastReasonAt!.getTime() - 1);
  });

  it("acknowledges a signed body that is not JSON (202) and records why", async () => {
    const body = "event=delivered&id=m_form";
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(202);
    expect((await readStreamHealth(demoId)).lastReason).toBe("the body is not JSON");
  });

  it("takes a nested foreign shape: the id from data.email_id, the word through the vocabulary, a re-read queued", async () => {
    const at = new Date(Date.now() - 5_000);
    const body = JSON.stringify({ type: "email.bounced", created_at: at.toISOString(), data: { email_id: "m_nested", from: "shop@acme.test", to: ["ada@example.com"], subject: "Order", bounce: { message: "550 5.1.1 no such user" } } });
    expect((await deliver(body, signed(body))).status).toBe(204);
    expect(await messageRow("m_nested")).toMatchObject({ status: "bounced", subject: "Order", source: "webhook", from: "shop@acme.test", to: ["ada@example.com"] });
    const [event] = await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "m_nested"));
    expect(event).toMatchObject({ type: "bounce", origin: "stream", data: { bounce: { message: "550 5.1.1 no such user" } } });
    expect(event.occurredAt.getTime()).toBe(Math.floor(at.getTime()));
    expect(await queuedReads("m_nested")).toBe(1);
  });

  it("takes a flat shape without addresses: the message is indexed with what there is, the re-read fills in", async () => {
    const body = JSON.stringify({ event: "Delivered", message_id: "m_flat", timestamp: Math.floor(Date.now() / 1000) });
    expect((await deliver(body, signed(body))).status).toBe(204);
    expect(await messageRow("m_flat")).toMatchObject({ status: "delivered", from: "", to: [], subject: null });
  });

  it("accepts Standard Webhooks signatures under svix-* header names", async () => {
    const body = JSON.stringify({ type: "email.sent", data: { email_id: "m_svix" } });
    expect((await deliver(body, signed(body, { prefix: "svix" }))).status).toBe(204);
    expect((await messageRow("m_svix"))!.status).toBe("sent");
  });

  it("verifies with a secret the service handed out without the whsec_ prefix", async () => {
    const body = JSON.stringify({ type: "delivered", data: { messageId: "m_bare" } });
    expect((await deliver(body, signed(body, { secret: BARE_SECRET }), "other")).status).toBe(204);
    expect(await messageRow("m_bare")).toMatchObject({ projectId: otherId, status: "delivered" });
  });

  it("refuses a delivery signed with another project's secret (the project check), and counts it for the project it was sent to", async () => {
    const before = await readStreamHealth(otherId);
    const body = JSON.stringify({ type: "delivered", data: { messageId: "m_cross" } });
    const res = await deliver(body, signed(body, { secret: SECRET }), "other");
    expect(res.status).toBe(401);
    expect(await messageRow("m_cross")).toBeUndefined();
    expect(await eventCount("m_cross")).toBe(0);
    const after = await readStreamHealth(otherId);
    expect(after.refusedCount - before.refusedCount).toBe(1);
    expect(after.lastReason).toBe("the signature does not match the signing secret");
    // …and the other way round: demo's endpoint refuses other's secret.
    expect((await deliver(body, signed(body, { secret: BARE_SECRET }), "demo")).status).toBe(401);
  });

  it("takes a delivery that is a list of events, each once", async () => {
    const body = JSON.stringify([
      { event: "delivered", sg_message_id: "ignored", message_id: "m_list_a" },
      { event: "open", message_id: "m_list_b" },
      { event: "processed" },
    ]);
    const headers = signed(body);
    expect((await deliver(body, headers)).status).toBe(204);
    expect((await deliver(body, headers)).status).toBe(204);
    expect(await eventCount("m_list_a")).toBe(1);
    expect(await eventCount("m_list_b")).toBe(1);
    expect((await messageRow("m_list_b"))!.status).toBe("delivered");
    // The delivery log names the list's first event and how many more it held.
    await flushDeliveryLog();
    const entry = (await readDeliveryLog(demoId)).find((d) => d.webhookId === headers["webhook-id"]);
    expect(entry).toMatchObject({ eventType: "delivery and 1 more", messageId: "m_list_a" });
  });

  it("a burst of events for one message queues one re-read", async () => {
    for (const type of ["queued", "sending", "sent", "delivery", "open"]) {
      const body = payload(type, "m_burst");
      expect((await deliver(body, signed(body))).status).toBe(204);
    }
    expect(await eventCount("m_burst")).toBe(5);
    expect(await queuedReads("m_burst")).toBe(1);
  });

  it("counts accepted deliveries and warns once per project and reason, not once per delivery", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const before = await readStreamHealth(demoId);
      resetStreamHealthMemory(); // earlier cases warned about stale timestamps already
      const good = payload("sent", "m_counted");
      await deliver(good, signed(good));
      const odd = JSON.stringify({ hello: "world" });
      for (let i = 0; i < 3; i++) expect((await deliver(odd, signed(odd))).status).toBe(202);
      const late = payload("sent", "m_late");
      // 20 and then 21 minutes late: one kind of problem, one warning.
      for (let i = 0; i < 2; i++) expect((await deliver(late, signed(late, { at: new Date(Date.now() - (20 + i) * 60_000) }))).status).toBe(401);
      const after = await readStreamHealth(demoId);
      expect(after.acceptedCount - before.acceptedCount).toBe(1);
      expect(after.unusableCount - before.unusableCount).toBe(3);
      expect(after.refusedCount - before.refusedCount).toBe(2);
      expect(after.lastReason).toMatch(/21 min old/);
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines.filter((l) => l.includes("its fields: hello"))).toHaveLength(1);
      expect(lines.filter((l) => / min old/.test(l))).toHaveLength(1);
      expect(lines.every((l) => l.includes("project demo"))).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });
});

/** Issue 25: what a stranger, or a verified delivery's content, can make the ingest do. */
describe("POST /api/ingest/[project]: bounds", () => {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  const statusOfQuiet = () => getStreamStatus({ id: quietId });

  it("posts that do not verify are counted as refused but never move the project's mode; a signed late one does", async () => {
    const good = JSON.stringify({ type: "delivered", data: { messageId: "m_quiet" } });
    expect((await deliver(good, signed(good), "quiet")).status).toBe(204);
    expect(await statusOfQuiet()).toMatchObject({ mode: "live", code: "live" });
    const before = (await statusOfQuiet()).health.refusedCount;
    await pause();
    const forged = JSON.stringify({ type: "delivered", data: { messageId: "m_forged" } });
    const stranger = `whsec_${Buffer.from("a-secret-the-dashboard-never-saw!").toString("base64")}`;
    for (let i = 0; i < 3; i++) expect((await deliver(forged, {}, "quiet")).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await deliver(forged, signed(forged, { secret: stranger }), "quiet")).status).toBe(401);
    // A stranger's signature with a late timestamp is still a stranger's.
    expect((await deliver(forged, signed(forged, { secret: stranger, at: new Date(Date.now() - 20 * 60_000) }), "quiet")).status).toBe(401);
    let status = await statusOfQuiet();
    expect(status).toMatchObject({ mode: "live", code: "live" });
    expect(status.health.refusedCount - before).toBe(7);
    expect(status.health.lastReason).toBe("the signature does not match the signing secret");
    expect(await eventCount("m_forged")).toBe(0);

    // Made with the project's key but 20 min late (the service's clock, or deliveries held up): polling.
    await pause();
    expect((await deliver(good, signed(good, { at: new Date(Date.now() - 20 * 60_000) }), "quiet")).status).toBe(401);
    status = await statusOfQuiet();
    expect(status).toMatchObject({ mode: "polling", code: "refused", reason: expect.stringMatching(/20 min old/) });
    await pause();
    expect((await deliver(good, signed(good), "quiet")).status).toBe(204);
    expect((await statusOfQuiet()).mode).toBe("live");
  });

  it("records a signed delivery holding NUL characters and lone surrogates, in strings and keys (never a 5xx the service would retry)", async () => {
    const body = JSON.stringify({
      type: "delivered",
      data: { messageId: "m_nul", subject: "Hi\u0000there \ud800", to: ["ada\u0000@example.com"], eventData: { "re\u0000ason": "x\udfff", note: ["\u0000"] } },
    });
    expect(body).toContain("\\u0000"); // as the service would send it: escaped in the JSON text
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(204);
    expect(await messageRow("m_nul")).toMatchObject({ subject: "Hi\ufffdthere \ufffd" });
    const [event] = await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "m_nul"));
    expect(event!.data).toMatchObject({ "re\ufffdason": "x\ufffd", note: ["\ufffd"] });
  });

  it("records a signed delivery nested far deeper than anything is read, cut at MAX_JSON_DEPTH", async () => {
    const depth = 50_000;
    const body = `{"type":"delivered","data":{"messageId":"m_deep","eventData":{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(204);
    const [event] = await (await db()).select().from(indexedEvents).where(eq(indexedEvents.messageId, "m_deep"));
    expect(JSON.stringify(event!.data)).toContain("[nested too deep]");
  });

  it("records a signed delivery with a recipient and an event word too long for the index, and a webhook-id too long for it, once", async () => {
    // Random, so Postgres cannot compress them under its btree row limit (about 2.7 KB).
    const noise = (bytes: number) => randomBytes(bytes).toString("hex");
    const long = `${noise(3_000)}@example.com`;
    const body = JSON.stringify({ type: "delivered", recordType: noise(3_000), data: { messageId: "m_long", to: [long, "bo@example.com"], from: long } });
    const id = `whd_${noise(3_000)}`;
    expect((await deliver(body, signed(body, { id }))).status).toBe(204);
    expect((await deliver(body, signed(body, { id }))).status).toBe(204);
    expect(await eventCount("m_long")).toBe(1);
    expect(await messageRow("m_long")).toMatchObject({ to: ["bo@example.com"], from: "" });
  });

  it("acknowledges a delivery that is a list of more than 100 events as unusable (202, so the service stops retrying it), naming the limit, and records none of it", async () => {
    const list = Array.from({ length: 5_000 }, (_, i) => ({ type: "delivered", data: { messageId: `m_many_${i}` } }));
    const body = JSON.stringify(list);
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ received: true, used: false, reason: expect.stringMatching(/list of 5000 events; at most 100 are taken from one delivery/) });
    expect(await eventCount("m_many_0")).toBe(0);
    expect(await queuedReads("m_many_0")).toBe(0);
    expect((await readStreamHealth(demoId)).lastReason).toMatch(/list of 5000 events/);
    // 100 is taken.
    const hundred = JSON.stringify(list.slice(0, 100));
    expect((await deliver(hundred, signed(hundred))).status).toBe(204);
    expect(await eventCount("m_many_99")).toBe(1);
  });

  it("through the route too: a body past INGEST_MAX_BYTES is a 413 naming the limit, declared or not", async () => {
    const body = JSON.stringify({ type: "delivered", data: { messageId: "m_big", text: "x".repeat(1024 * 1024) } });
    const res = await deliver(body, signed(body));
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/at most 1 MB \(INGEST_MAX_BYTES\)/);
    // Declared too large: answered before the body (which never comes) is read.
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const req = new Request("http://dash.test:3000/api/ingest/demo", {
      method: "POST",
      body: never,
      headers: { ...signed("{}"), "content-length": String(2 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    expect((await POST(req, { params: Promise.resolve({ project: "demo" }) })).status).toBe(413);
    expect(await eventCount("m_big")).toBe(0);
  });
});
