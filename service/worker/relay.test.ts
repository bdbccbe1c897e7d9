import { createServer } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, suppressions } from "../db/schema";
import { eventsOf } from "../lib/messages";
import { closeRelayTransports } from "../lib/smtp-relay";
import { SEND_JOB } from "../lib/accept";
import { createTestService, type TestService } from "../test/harness";
import { addVerifiedDomain, statusOf, waitFor } from "../test/sending-fixtures";
import { startSmtpSink } from "../test/smtp-sink";
import { RELAY_JOB, RELAY_MAX_ATTEMPTS, messageJobHandlers } from "./messages";

let svc: TestService;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let laterTries = 0;
const from = { email: "app@alpha.test", name: "Alpha App" };

beforeAll(async () => {
  sink = await startSmtpSink({
    rcpt: (a) => (a.startsWith("nobody") ? 550 : a.startsWith("later") && laterTries++ === 0 ? 451 : undefined),
  });
  svc = await createTestService({ worker: true, config: { SERVICE_SMTP_URL: sink.url } });
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
});
afterAll(async () => {
  await svc.close();
  closeRelayTransports(); // pooled connections would hold the sink open
  await sink.close();
});

async function send(body: Record<string, unknown>) {
  const res = await svc.call("POST", "/v1/emails", { body: { from, subject: "Relay", text: "Body", ...body } });
  expect(res.status).toBe(202);
  return (await res.json()).id as string;
}
const settled = (id: string, status: string) => waitFor(async () => (await statusOf(svc.db, id)) === status, `${id} ${status}`);

describe("SMTP relay", () => {
  it("relays the full MIME message and records sent then delivered", async () => {
    const pdf = Buffer.from("%PDF-1.4 \x00\xff binary", "latin1");
    const id = await send({
      to: [{ email: "ann@example.com", name: "Ann" }], cc: [{ email: "cc@example.com" }], bcc: [{ email: "hidden@example.com" }],
      replyTo: [{ email: "support@alpha.test" }], headers: { "X-Campaign": "spring" }, tags: [{ name: "kind", value: "receipt" }],
      html: "<p>Hi</p>", attachments: [{ filename: "r.pdf", content: pdf.toString("base64"), contentType: "application/pdf" }],
    });
    await settled(id, "delivered");
    const mail = sink.mails.find((m) => m.parsed.headers.get("x-service-message-id") === id)!;
    expect(mail.envelope.to.sort()).toEqual(["ann@example.com", "cc@example.com", "hidden@example.com"]);
    const p = mail.parsed;
    expect(p.from?.value[0]).toMatchObject({ address: "app@alpha.test", name: "Alpha App" });
    expect(p.headers.has("bcc")).toBe(false);
    expect(p.replyTo?.value[0].address).toBe("support@alpha.test");
    expect(p.headers.get("x-campaign")).toBe("spring");
    expect(p.headers.get("x-tag-kind")).toBe("receipt");
    expect(p.attachments[0].content.equals(pdf)).toBe(true);
    const [row] = await svc.db.select().from(messages).where(eq(messages.id, id));
    expect(p.messageId).toBe(row.rfcMessageId);
    const events = await eventsOf(svc.db, id);
    expect(events.map((e) => e.type)).toEqual(["accepted", "queued", "sending", "sent", "delivery"]);
    expect(String(events[3].data.response)).toMatch(/^250/);
  });

  it("bounces on a 5xx refusal of the recipient and suppresses it", async () => {
    const id = await send({ to: [{ email: "nobody@example.com" }] });
    await settled(id, "bounced");
    const events = await eventsOf(svc.db, id);
    expect(events.at(-1)!.data).toMatchObject({ bounceType: "hard", recipient: "nobody@example.com" });
    const [s] = await svc.db.select().from(suppressions).where(and(eq(suppressions.projectId, svc.alpha.id), eq(suppressions.email, "nobody@example.com")));
    expect(s).toMatchObject({ reason: "bounce", messageId: id });
  });

  it("delivers to the accepted recipients and bounces the refused one", async () => {
    const id = await send({ to: [{ email: "ok@example.com" }, { email: "nobody2@example.com" }] });
    await settled(id, "delivered");
    const types = (await eventsOf(svc.db, id)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["sent", "bounce", "delivery"]);
    expect(await svc.db.select().from(suppressions).where(eq(suppressions.email, "nobody2@example.com"))).toHaveLength(1);
  });

  it("retries a temporary (4xx) refusal through the queue", async () => {
    const id = await send({ to: [{ email: "later@example.com" }] });
    await settled(id, "delivered");
    expect(laterTries).toBe(2);
  });
});

describe("SMTP relay that cannot be reached", () => {
  it("throws for the queue to retry, and records failed on the last attempt", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const down = await createTestService({ config: { SERVICE_SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      await addVerifiedDomain(down.db, down.alpha.id, "alpha.test");
      const res = await down.call("POST", "/v1/emails", { body: { from, to: [{ email: "a@example.com" }], subject: "x", text: "y" } });
      const { id } = await res.json();
      await messageJobHandlers[SEND_JOB](down.deps, { messageId: id }, 1);
      expect(await statusOf(down.db, id)).toBe("sending");
      await expect(messageJobHandlers[RELAY_JOB](down.deps, { messageId: id }, 1)).rejects.toThrow(/ECONNECTION|ECONNREFUSED/);
      expect(await statusOf(down.db, id)).toBe("sending");
      await messageJobHandlers[RELAY_JOB](down.deps, { messageId: id }, RELAY_MAX_ATTEMPTS);
      expect(await statusOf(down.db, id)).toBe("failed");
      const last = (await eventsOf(down.db, id)).at(-1)!;
      expect(last.type).toBe("failed");
      expect(last.data.attempts).toBe(RELAY_MAX_ATTEMPTS);
    } finally {
      await down.close();
    }
  });
});
