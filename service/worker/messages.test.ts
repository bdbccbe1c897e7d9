import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, jobs, suppressions } from "../db/schema";
import { newId } from "../lib/ids";
import { createTestService, type TestService } from "../test/harness";
import { addTemplate, addVerifiedDomain, waitFor } from "../test/sending-fixtures";

let svc: TestService;
const from = { email: "app@alpha.test", name: "App" };

beforeAll(async () => {
  svc = await createTestService({ worker: true });
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
  await addTemplate(svc.db, svc.alpha.id, { slug: "welcome", subject: "Welcome {{name}}", html: "<p>Hi {{name}}, <a href=\"https://x.test/{{code}}\">go</a></p>" });
});
afterAll(() => svc.close());

type Msg = { id: string; status: string; subject: string | null; html: string | null; events: { type: string; createdAt: string; data: Record<string, unknown> }[] };

async function sendTo(email: string, extra: Record<string, unknown> = {}) {
  const res = await svc.call("POST", "/v1/emails", { body: { from, to: [{ email }], subject: "Hello", html: '<p><a href="https://example.com/go">Go</a></p>', ...extra } });
  expect(res.status).toBe(202);
  return (await res.json()).id as string;
}

const get = async (id: string) => (await (await svc.call("GET", `/v1/emails/${id}`)).json()) as Msg;

/** Waits until the message's events end with `lastType` and returns it. */
async function settle(id: string, lastType: string) {
  return waitFor(async () => {
    const m = await get(id);
    return m.events.at(-1)?.type === lastType ? m : null;
  }, `${id} to reach ${lastType}`);
}
const types = (m: Msg) => m.events.map((e) => e.type);

describe("sandbox lifecycle", () => {
  it("moves queued → sending → sent → delivered, one event per step", async () => {
    const m = await settle(await sendTo("someone@example.com"), "delivery");
    expect(m.status).toBe("delivered");
    expect(types(m)).toEqual(["accepted", "queued", "sending", "sent", "delivery"]);
  });

  it("hard-bounces bounce@ (also with +label) and suppresses the address for the project", async () => {
    const id = await sendTo("Bounce+signup@example.com");
    const m = await settle(id, "bounce");
    expect(m.status).toBe("bounced");
    expect(m.events.at(-1)!.data).toMatchObject({ bounceType: "hard", diagnostic: expect.stringMatching(/^550 5\.1\.1/) });
    const [s] = await svc.db.select().from(suppressions)
      .where(and(eq(suppressions.projectId, svc.alpha.id), eq(suppressions.email, "bounce+signup@example.com")));
    expect(s).toMatchObject({ reason: "bounce", messageId: id });
    // The next send to it is rejected without delivery.
    const next = await settle(await sendTo("bounce+signup@example.com"), "rejected");
    expect(next.status).toBe("rejected");
    expect(types(next)).not.toContain("sending");
  });

  it("records a complaint after delivery, suppresses and unsubscribes the contact", async () => {
    await svc.db.insert(contacts).values({ id: newId("ct"), projectId: svc.alpha.id, email: "complaint@example.com" });
    const id = await sendTo("complaint@example.com");
    const m = await settle(id, "complaint");
    expect(m.status).toBe("complained");
    expect(types(m).slice(-3)).toEqual(["sent", "delivery", "complaint"]);
    const [s] = await svc.db.select().from(suppressions).where(eq(suppressions.email, "complaint@example.com"));
    expect(s).toMatchObject({ reason: "complaint", messageId: id });
    const [c] = await svc.db.select().from(contacts).where(eq(contacts.email, "complaint@example.com"));
    expect(c.subscribed).toBe(false);
    expect(c.unsubscribedAt).toBeInstanceOf(Date);
  });

  it("opens and clicks the first link for opened@ and clicked@", async () => {
    const opened = await settle(await sendTo("opened@example.com"), "open");
    expect(opened.status).toBe("delivered");
    const clicked = await settle(await sendTo("clicked@example.com"), "click");
    expect(types(clicked).slice(-3)).toEqual(["delivery", "open", "click"]);
    expect(clicked.events.at(-1)!.data.link).toBe("https://example.com/go");
  });

  it("delays softbounce@ and delayed@ with a cause, then delivers", async () => {
    for (const [email, cause] of [["softbounce@example.com", "mailbox_full"], ["delayed@example.com", "greylisted"]]) {
      const m = await settle(await sendTo(email), "delivery");
      expect(types(m).slice(-3)).toEqual(["sent", "delivery_delayed", "delivery"]);
      expect(m.events.at(-2)!.data.cause).toBe(cause);
      expect(m.status).toBe("delivered");
    }
  });

  it("rejects reject@ and fails fail@", async () => {
    expect((await settle(await sendTo("reject@example.com"), "rejected")).status).toBe("rejected");
    expect((await settle(await sendTo("fail@example.com"), "failed")).status).toBe("failed");
  });

  it("rejects a suppressed recipient, naming the address and the reason", async () => {
    await svc.call("POST", "/v1/suppressions", { body: { email: "blocked@example.com", reason: "manual" } });
    const m = await settle(await sendTo("ok@example.com", { cc: [{ email: "Blocked@example.com" }] }), "rejected");
    expect(m.status).toBe("rejected");
    expect(m.events.at(-1)!.data).toMatchObject({ reason: "suppressed", email: "blocked@example.com", suppressionReason: "manual" });
    expect(types(m)).toEqual(["accepted", "queued", "rejected"]);
  });
});

describe("templated sends", () => {
  it("renders at send time with the data given", async () => {
    const id = await sendTo("someone@example.com", { subject: undefined, html: undefined, templateId: "welcome", data: { name: "Ann & Bo", code: "x1" } });
    const m = await settle(id, "delivery");
    expect(m.subject).toBe("Welcome Ann & Bo");
    expect(m.html).toContain("Hi Ann &amp; Bo");
  });

  it("fails with rendering_failure naming a missing variable", async () => {
    const id = await sendTo("someone@example.com", { subject: undefined, html: undefined, templateId: "welcome", data: { name: "Ann" } });
    const m = await settle(id, "rendering_failure");
    expect(m.status).toBe("failed");
    expect(m.events.at(-1)!.data.missing).toEqual(["code"]);
    expect(String(m.events.at(-1)!.data.error)).toContain("code");
    expect(types(m)).not.toContain("sending");
  });
});

describe("scheduled sends", () => {
  it("hold the message queued until its time, then send it once", async () => {
    // An hour ahead: a time a few seconds ahead could come before the check below on a busy machine.
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const id = await sendTo("someone@example.com", { scheduledAt });
    // A full pass of the worker over the queue leaves it alone: its job is not due yet.
    svc.worker!.kick();
    await svc.worker!.idle();
    const early = await get(id);
    expect(early.status).toBe("queued");
    expect(types(early)).toEqual(["accepted", "queued"]);
    expect(early.events[1].data.scheduledAt).toBe(scheduledAt);
    // Its time comes (the job moved to now rather than waited for).
    const due = new Date();
    await svc.db.update(jobs).set({ runAt: due }).where(sql`${jobs.payload}->>'messageId' = ${id}`);
    svc.worker!.kick();
    const m = await settle(id, "delivery");
    expect(types(m).filter((t) => t === "sent")).toHaveLength(1);
    expect(Date.parse(m.events[2].createdAt)).toBeGreaterThanOrEqual(due.getTime());
  });
});
