import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookPayload } from "../../contract/wire";
import { jobs, webhookDeliveries } from "../db/schema";
import { WEBHOOK_DELIVERY_JOB } from "../lib/events";
import { createApiKey } from "../lib/accounts";
import { createTestService, type TestService } from "../test/harness";
import { addVerifiedDomain, startReceiver, waitFor } from "../test/sending-fixtures";

let svc: TestService;
const email = { from: { email: "app@alpha.test" }, to: [{ email: "someone@example.com" }], subject: "Hook me", text: "x" };

beforeAll(async () => {
  // The receivers of these tests listen on loopback, which only ALLOW_PRIVATE lets through.
  svc = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
});
afterAll(() => svc.close());

const create = (body: unknown, init: Parameters<TestService["call"]>[2] = {}) => svc.call("POST", "/v1/webhooks", { body, ...init });

describe("webhook endpoints", () => {
  it("creates (201, secret shown once), lists redacted, pages, and deletes (204)", async () => {
    const res = await create({ url: "http://127.0.0.1:9/hook", eventTypes: ["delivery", "bounce", "delivery"] }, { project: "beta" });
    expect(res.status).toBe(201);
    const hook = await res.json();
    expect(hook).toMatchObject({ id: expect.stringMatching(/^wh_/), url: "http://127.0.0.1:9/hook", enabled: true, eventTypes: ["delivery", "bounce"] });
    expect(hook.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    for (let i = 0; i < 4; i++) await create({ url: `https://hooks.example.com/${i}`, eventTypes: ["open"] }, { project: "beta" });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string; signingSecret: string }[]; nextCursor: string | null } =
        await (await svc.call("GET", `/v1/webhooks?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { project: "beta" })).json();
      for (const h of page.data) {
        expect(h.signingSecret).toMatch(/^whsec_….{4}$/);
        seen.push(h.id);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const listed = (await (await svc.call("GET", "/v1/webhooks", { project: "beta" })).json()).data.find((h: { id: string }) => h.id === hook.id);
    expect(listed.signingSecret).toBe(`whsec_…${hook.signingSecret.slice(-4)}`);

    expect((await svc.call("DELETE", `/v1/webhooks/${hook.id}`, { project: "alpha" })).status).toBe(404);
    expect((await svc.call("DELETE", `/v1/webhooks/${hook.id}`, { project: null })).status).toBe(204);
    expect((await svc.call("DELETE", `/v1/webhooks/${hook.id}`, { project: null })).status).toBe(404);
    const after = await (await svc.call("GET", "/v1/webhooks", { project: "beta" })).json();
    expect(after.data.map((h: { id: string }) => h.id)).not.toContain(hook.id);
  });

  it("names the field of invalid input", async () => {
    const cases: [unknown, string][] = [
      [{ url: "not a url", eventTypes: ["delivery"] }, "url"],
      [{ url: "ftp://example.com/x", eventTypes: ["delivery"] }, "url"],
      [{ url: "https://example.com/x", eventTypes: ["delivery", "nope"] }, "eventTypes.1"],
      [{ url: "https://example.com/x", eventTypes: [] }, "eventTypes"],
      [{ url: "https://example.com/x" }, "eventTypes"],
    ];
    for (const [body, param] of cases) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.param).toBe(param);
    }
    expect((await svc.call("GET", "/v1/webhooks?limit=0")).status).toBe(400);
  });

  it("enforces scopes and projects", async () => {
    const ro = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "ro", scopes: ["webhooks:read"] })).secret;
    expect((await svc.call("GET", "/v1/webhooks", { key: ro })).status).toBe(200);
    expect((await create({ url: "https://example.com/x", eventTypes: ["open"] }, { key: ro })).status).toBe(403);
    expect((await svc.call("GET", "/v1/webhooks", { project: null })).status).toBe(400);
    expect((await svc.call("GET", "/v1/webhooks", { key: svc.alphaKey, project: "beta" })).status).toBe(403);
    const { id } = await (await create({ url: "https://example.com/x", eventTypes: ["open"] })).json();
    expect((await svc.call("DELETE", `/v1/webhooks/${id}`, { key: ro })).status).toBe(403);
    expect((await svc.call("DELETE", `/v1/webhooks/${id}`, { key: svc.alphaKey, project: null })).status).toBe(204);
  });
});

describe("webhook deliveries", () => {
  it("signs each delivery (Standard Webhooks) with the event's payload, for subscribed types only", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await (await create({ url: receiver.url, eventTypes: ["sent", "delivery"] })).json();
      const { id } = await (await svc.call("POST", "/v1/emails", { body: email })).json();
      await waitFor(async () => receiver.received.length >= 2, "two deliveries");
      const wh = new Webhook(hook.signingSecret);
      const bodies = receiver.received.map((r) => webhookPayload.parse(wh.verify(r.body, r.headers)));
      expect(bodies.map((b) => b.type).sort()).toEqual(["delivery", "sent"]);
      const delivery = bodies.find((b) => b.type === "delivery")!;
      expect(delivery.data).toMatchObject({
        messageId: id, project: "alpha", direction: "outbound", from: "app@alpha.test", to: ["someone@example.com"], subject: "Hook me", status: "delivered",
      });
      expect(receiver.received[0].headers["webhook-id"]).toMatch(/^whd_/);
      // A tampered body does not verify.
      expect(() => wh.verify(receiver.received[0].body.replace("alpha", "beta"), receiver.received[0].headers)).toThrow();
      await svc.call("DELETE", `/v1/webhooks/${hook.id}`);
    } finally {
      await receiver.close();
    }
  });

  it("retries failed attempts with the same webhook-id, then gives up as failed", async () => {
    const flaky = await startReceiver((_r, i) => (i < 2 ? 500 : 204));
    const dead = await startReceiver(() => 503);
    try {
      const a = await (await create({ url: flaky.url, eventTypes: ["accepted"] })).json();
      const b = await (await create({ url: dead.url, eventTypes: ["accepted"] })).json();
      await svc.call("POST", "/v1/emails", { body: email });
      await waitFor(async () => flaky.received.length === 3, "three attempts");
      expect(new Set(flaky.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const delivered = await waitFor(async () => {
        const [row] = await svc.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, a.id));
        return row.state === "delivered" ? row : null;
      }, "delivered");
      expect(delivered).toMatchObject({ eventType: "accepted", attempts: 3, lastStatus: 204 });

      // The test schedule is [50, 100, 200] ms: four attempts, then failed.
      const failed = await waitFor(async () => {
        const [row] = await svc.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, b.id));
        return row.state === "failed" ? row : null;
      }, "failed delivery");
      expect(failed).toMatchObject({ attempts: 4, lastStatus: 503 });
      expect(dead.received).toHaveLength(4);
      await svc.call("DELETE", `/v1/webhooks/${a.id}`);
      await svc.call("DELETE", `/v1/webhooks/${b.id}`);
    } finally {
      await flaky.close();
      await dead.close();
    }
  });

  it("stops delivering at once when the endpoint is deleted", async () => {
    const other = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_RETRY_SCHEDULE: [400, 400, 400], SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
    const receiver = await startReceiver(() => 500);
    // A second endpoint that stays: once it has an event, the deleted one would have had it too.
    const control = await startReceiver(() => 200);
    try {
      await addVerifiedDomain(other.db, other.alpha.id, "alpha.test");
      const hook = await (await other.call("POST", "/v1/webhooks", { body: { url: receiver.url, eventTypes: ["accepted"] } })).json();
      expect((await other.call("POST", "/v1/webhooks", { body: { url: control.url, eventTypes: ["accepted"] } })).status).toBe(201);
      await other.call("POST", "/v1/emails", { body: email });
      await waitFor(async () => receiver.received.length === 1, "first attempt");
      expect((await other.call("DELETE", `/v1/webhooks/${hook.id}`)).status).toBe(204);
      const [row] = await other.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
      expect(row.state).toBe("cancelled");
      // Its scheduled retry has run (and found the delivery cancelled) once no job for it is queued.
      await waitFor(async () => {
        const left = await other.db.select().from(jobs).where(eq(jobs.kind, WEBHOOK_DELIVERY_JOB));
        return left.every((j) => j.payload.deliveryId !== row.id) ? true : null;
      }, "the retry of the cancelled delivery to run");
      expect(receiver.received).toHaveLength(1);
      // New events reach it no more either: the control endpoint gets the next one, it does not.
      await waitFor(async () => control.received.length >= 1, "the control endpoint's first delivery");
      const before = control.received.length;
      await other.call("POST", "/v1/emails", { body: email });
      await waitFor(async () => control.received.length > before, "the control endpoint's delivery");
      expect(receiver.received).toHaveLength(1);
    } finally {
      await control.close();
      await receiver.close();
      await other.close();
    }
  });
});
