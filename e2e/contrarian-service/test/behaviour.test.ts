import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { BOUNCE_REASON } from "../src/lifecycle";
import { receiver, send, startContrarian, until, type TestContrarian } from "./harness";

/** The behaviour the journeys rely on: lifecycles, outcomes by recipient, webhooks, domains, limits. */
let t: TestContrarian;
afterEach(() => t?.stop());

const message = async (id: string) => (await t.call("GET", `/v1/emails/${id}`, { project: null })).json;

describe("lifecycle", () => {
  it("moves queued → processing → delivery_succeeded with an event of its own layout per step", async () => {
    t = startContrarian();
    const { json } = await send(t, "ada@example.org");
    const done = await until(() => message(json.id), (m) => m.status === "delivery_succeeded");
    expect(done.events.map((e: { event: string }) => e.event)).toEqual(["Accepted", "Processing", "Delivered"]);
    for (const e of done.events) expect(Number.isInteger(e.timestamp)).toBe(true);
    expect(done.events[2].details).toEqual({ smtpResponse: expect.stringMatching(/^250 /) });
    for (const absent of ["threadId", "html", "text", "tags"]) expect(done).not.toHaveProperty(absent);
  });

  it("bounces an address containing 'bounce' with its reason, and suppresses it", async () => {
    t = startContrarian();
    const { json } = await send(t, "will-bounce@example.org");
    const done = await until(() => message(json.id), (m) => m.status === "hard_bounce");
    expect(done.events.at(-1)).toMatchObject({ event: "HardBounce", details: { bounceReason: BOUNCE_REASON } });
    const list = await t.call("GET", "/v1/suppressions?limit=100");
    expect(list.json.data).toContainEqual(expect.objectContaining({ email: "will-bounce@example.org", reason: "permanent_bounce" }));
    // The next send to it is blocked before it goes out.
    const again = await send(t, "will-bounce@example.org");
    expect((await until(() => message(again.json.id), (m) => m.status === "blocked")).events.at(-1).event).toBe("Blocked");
  });

  it("ends an address containing 'expire' in the unfamiliar word 'expired', and a complaint unsubscribes the contact", async () => {
    t = startContrarian();
    const expiring = await send(t, "expire-me@example.org");
    const done = await until(() => message(expiring.json.id), (m) => m.status === "expired");
    expect(done.events.map((e: { event: string }) => e.event)).toEqual(["Accepted", "Processing", "Deferred", "Expired"]);

    const contact = await t.call("POST", "/v1/contacts", { body: { email: "Complainer@example.org" } });
    const complaint = await send(t, "complainer@example.org");
    await until(() => message(complaint.json.id), (m) => m.status === "spam_complaint");
    const after = await t.call("GET", `/v1/contacts/${contact.json.id}`, { project: null });
    expect(after.json).toMatchObject({ subscribed: false, email: "Complainer@example.org" });
    const resubscribed = await t.call("POST", `/v1/contacts/${contact.json.id}/resubscribe`, { project: null });
    expect(resubscribed.status).toBe(200);
    expect(resubscribed.json).toMatchObject({ subscribed: true, unsubscribedAt: null });
  });

  it("holds a scheduled message until its time", async () => {
    t = startContrarian();
    const at = new Date(Date.now() + 300).toISOString();
    const { json } = await send(t, "later@example.org", { scheduledAt: at });
    expect((await message(json.id)).status).toBe("queued");
    const done = await until(() => message(json.id), (m) => m.status === "delivery_succeeded");
    expect(done.events[1]).toMatchObject({ event: "Scheduled", details: { sendAt: at } });
    expect(done.events[2].timestamp * 1000).toBeGreaterThanOrEqual(Date.parse(at) - 1000);
  });

  it("renders a template by slug, leaving missing values empty", async () => {
    t = startContrarian();
    const { json } = await send(t, "x@example.org", { subject: undefined, text: undefined, templateId: "hello-aboard", data: { firstName: "Ada" } });
    expect(json).toMatchObject({ status: "queued" });
    expect((await message(json.id)).subject).toBe("Welcome to , Ada!");
    const preview = await t.call("POST", "/v1/templates/preview", { body: { subject: "Hi {{n}}", html: "<b>{{n}}</b>", data: { n: "<i>" } } });
    expect(preview.json.rendered).toEqual({ subject: "Hi <i>", html: "<b>&lt;i&gt;</b>" });
  });
});

describe("webhooks", () => {
  it("delivers subscribed events signed per Standard Webhooks with a plain base64 secret, in its own payload shape", async () => {
    t = startContrarian();
    const hook = await receiver();
    try {
      const created = await t.call("POST", "/v1/webhooks", { body: { url: hook.url, eventTypes: ["bounce", "inbound_received"] } });
      const secret = created.json.signingSecret as string;
      expect(secret).not.toMatch(/^whsec_/);
      expect(Buffer.from(secret, "base64").length).toBe(24);
      const { json } = await send(t, "bounce-here@example.org");
      const sim = await t.call("POST", "/v1/inbound/simulate", { body: { to: "help@mail.alpha-one.example", from: "c@example.org", subject: "Help" } });
      expect(sim.status).toBe(200);
      await until(() => hook.received.length, (n) => n >= 2);
      const verifier = new Webhook(secret);
      const bodies = hook.received.map((r) =>
        verifier.verify(r.body, { "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) }),
      );
      expect(bodies).toContainEqual({
        event: "email.bounced",
        occurred_at: expect.any(String),
        api_version: expect.any(String),
        payload: { email_id: json.id, recipient: "bounce-here@example.org", bounce: { reason: BOUNCE_REASON } },
      });
      const inbound = bodies.find((b) => (b as { event: string }).event === "inbound.received") as { payload: { email_id: string } };
      expect(inbound.payload.email_id).toBe(sim.json.inbound.messageId);
      expect((await message(sim.json.inbound.messageId)).direction).toBe("inbound");
    } finally {
      await hook.close();
    }
  });

  it("retries a delivery that did not get a 2xx on its schedule, same webhook-id, and logs every attempt", async () => {
    t = startContrarian();
    const hook = await receiver((n) => (n < 3 ? 500 : 200));
    try {
      await t.call("POST", "/v1/webhooks", { body: { url: hook.url, eventTypes: ["accepted"] } });
      await send(t, "x@example.org");
      await until(() => hook.received.length, (n) => n === 3);
      expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const log = await until(
        async () => (await t.call("GET", "/__contrarian/deliveries")).json.data as { status: number; outcome: string; attempt: number }[],
        (d) => d.length === 3,
      );
      expect(log.map((d) => [d.attempt, d.status, d.outcome])).toEqual([
        [1, 500, "retrying"],
        [2, 500, "retrying"],
        [3, 200, "delivered"],
      ]);
    } finally {
      await hook.close();
    }
  });
});

describe("domains and limits", () => {
  it("a new domain's records verify by themselves; create carries status, the list does not", async () => {
    t = startContrarian();
    const created = await t.call("POST", "/v1/domains", { body: { domain: "Brand-New.example." } });
    expect(created.json).toMatchObject({ domain: "brand-new.example", status: "pending" });
    expect(created.json.records.every((r: { verified: boolean }) => r.verified === false)).toBe(true);
    const verified = await until(
      async () => (await t.call("GET", "/v1/domains?status=verified&limit=100")).json.data as { domain: string; records: { verified: boolean }[] }[],
      (list) => list.some((d) => d.domain === "brand-new.example"),
    );
    expect(verified.find((d) => d.domain === "brand-new.example")!.records.every((r) => r.verified)).toBe(true);
    expect((await t.call("GET", `/v1/domains/${created.json.id}/receiving`, { project: null })).json.enabled).toBe(true);
    expect((await t.call("POST", "/v1/domains", { body: { domain: "brand-new.example" } })).status).toBe(409);
  });

  it("answers 429 in plain text with Retry-After as an HTTP date past the window", async () => {
    t = startContrarian({ CONTRARIAN_RATE_LIMIT: "2", CONTRARIAN_RATE_WINDOW_MS: "60000" });
    await t.call("GET", "/v1/templates");
    await t.call("GET", "/v1/templates");
    const limited = await t.call("GET", "/v1/templates");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Content-Type")).toContain("text/plain");
    const retryAt = Date.parse(limited.headers.get("Retry-After")!);
    expect(retryAt).toBeGreaterThan(Date.now());
    expect(limited.headers.get("Retry-After")).toMatch(/GMT$/);
  });
});
