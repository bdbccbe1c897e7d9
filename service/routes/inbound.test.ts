import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { message as messageShape, webhookPayload } from "../../contract/wire";
import { attachments, messages } from "../db/schema";
import { createApiKey } from "../lib/accounts";
import { eventsOf } from "../lib/messages";
import { startInboundSmtp, type InboundSmtp } from "../smtp/inbound";
import { createTestService, type TestService } from "../test/harness";
import { addVerifiedDomain, startReceiver, waitFor } from "../test/sending-fixtures";

let svc: TestService;
let smtp: InboundSmtp;

beforeAll(async () => {
  // The receiver listens on loopback, which only ALLOW_PRIVATE lets through.
  svc = await createTestService({ worker: true, config: { SERVICE_WEBHOOK_ALLOW_PRIVATE: true } });
  await addVerifiedDomain(svc.db, svc.alpha.id, "in.alpha.test", { receiving: true });
  await addVerifiedDomain(svc.db, svc.alpha.id, "quiet.alpha.test", { receiving: false });
  await addVerifiedDomain(svc.db, svc.beta.id, "in.beta.test", { receiving: true });
  smtp = await startInboundSmtp(svc.deps, 0, "127.0.0.1");
});
afterAll(async () => {
  await smtp.close();
  await svc.close();
});

const simulate = (body: unknown, init: Parameters<TestService["call"]>[2] = {}) => svc.call("POST", "/v1/inbound/simulate", { body, ...init });

describe("POST /v1/inbound/simulate", () => {
  it("stores an inbound message, returns it and fires webhooks with its content", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await (await svc.call("POST", "/v1/webhooks", { body: { url: receiver.url, eventTypes: ["inbound_received"] } })).json();
      const res = await simulate({ from: "Customer@Example.com", to: "support@in.alpha.test", subject: "Question", text: "Hello?", html: "<p>Hello?</p>" });
      expect(res.status).toBe(200);
      const msg = messageShape.parse(await res.json());
      expect(msg).toMatchObject({ direction: "inbound", status: "received", from: "Customer@Example.com", to: ["support@in.alpha.test"], subject: "Question", text: "Hello?" });
      expect(msg.events.map((e) => e.type)).toEqual(["inbound_received"]);
      expect((await (await svc.call("GET", `/v1/emails/${msg.id}`)).json()).status).toBe("received");

      await waitFor(async () => receiver.received.length === 1, "the inbound webhook");
      const payload = webhookPayload.parse(new Webhook(hook.signingSecret).verify(receiver.received[0].body, receiver.received[0].headers));
      expect(payload).toMatchObject({ type: "inbound_received", data: { messageId: msg.id, direction: "inbound", status: "received", text: "Hello?", html: "<p>Hello?</p>" } });
      await svc.call("DELETE", `/v1/webhooks/${hook.id}`);
    } finally {
      await receiver.close();
    }
  });

  it("names the field of invalid input and checks scope and project", async () => {
    for (const [body, param] of [
      [{ from: "a@example.com", to: "b@example.com" }, "subject"],
      [{ from: "nope", to: "b@example.com", subject: "x" }, "from"],
      [{ from: "a@example.com", subject: "x" }, "to"],
    ] as const) {
      const res = await simulate(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.param).toBe(param);
    }
    const body = { from: "a@example.com", to: "b@in.alpha.test", subject: "x" };
    expect((await simulate(body, { project: null })).status).toBe(400);
    const sendOnly = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: null, name: "s", scopes: ["emails:send"] })).secret;
    expect((await simulate(body, { key: sendOnly })).status).toBe(403);
    const withScope = (await createApiKey(svc.db, { accountId: svc.account.id, projectId: svc.beta.id, name: "i", scopes: ["inbound:write"] })).secret;
    expect((await simulate(body, { key: withScope, project: null })).status).toBe(200);
    expect((await simulate(body, { key: withScope, project: "alpha" })).status).toBe(403);
  });
});

describe("inbound SMTP listener", () => {
  const transport = () => nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true });

  it("accepts mail for a receiving domain, with attachments, threaded onto the message it answers", async () => {
    const sent = await (await svc.call("POST", "/v1/inbound/simulate", { body: { from: "x@example.com", to: "help@in.alpha.test", subject: "First" } })).json();
    const [original] = await svc.db.select().from(messages).where(eq(messages.id, sent.id));
    const bytes = Buffer.from([1, 2, 3, 0, 255]);
    const info = await transport().sendMail({
      from: { name: "Customer", address: "customer@example.com" },
      to: ["help@in.alpha.test", "desk@in.beta.test"],
      subject: "Re: First",
      text: "Following up",
      html: "<p>Following up</p>",
      inReplyTo: original.rfcMessageId,
      references: [original.rfcMessageId],
      headers: { "X-Ticket": "42" },
      attachments: [{ filename: "log.bin", content: bytes }],
    });
    expect(info.accepted).toHaveLength(2);
    const rows = await waitFor(async () => {
      const found = await svc.db.select().from(messages).where(eq(messages.subject, "Re: First"));
      return found.length === 2 ? found : null;
    }, "the inbound mail");
    const alpha = rows.find((r) => r.projectId === svc.alpha.id)!;
    expect(alpha).toMatchObject({ direction: "inbound", status: "received", from: "customer@example.com", fromName: "Customer", threadId: original.threadId, inReplyTo: original.rfcMessageId });
    expect(alpha.to).toEqual([{ email: "help@in.alpha.test" }]);
    expect(alpha.headers["X-Ticket"]).toBe("42");
    const [file] = await svc.db.select().from(attachments).where(eq(attachments.messageId, alpha.id));
    expect(file.content.equals(bytes)).toBe(true);
    expect((await eventsOf(svc.db, alpha.id)).map((e) => e.type)).toEqual(["inbound_received"]);
    const beta = rows.find((r) => r.projectId === svc.beta.id)!;
    expect(beta.to).toEqual([{ email: "desk@in.beta.test" }]);
    expect(beta.threadId).toBe(beta.id); // the other project knows nothing of the thread
  });

  it("refuses recipients on domains that do not receive here (550), recording it when a project owns the domain", async () => {
    const refused = transport().sendMail({ from: "refused@example.com", to: "someone@quiet.alpha.test", subject: "Nope", text: "x" });
    await expect(refused).rejects.toMatchObject({ responseCode: 550 });
    const [row] = await svc.db.select().from(messages).where(eq(messages.from, "refused@example.com"));
    expect(row).toMatchObject({ projectId: svc.alpha.id, direction: "inbound", status: "rejected" });
    const [event] = await eventsOf(svc.db, row.id);
    expect(event).toMatchObject({ type: "inbound_rejected", data: { reason: "receiving_disabled" } });

    await expect(transport().sendMail({ from: "unknown@example.com", to: "x@nowhere.test", subject: "?", text: "x" })).rejects.toMatchObject({ responseCode: 550 });
    expect(await svc.db.select().from(messages).where(eq(messages.from, "unknown@example.com"))).toHaveLength(0);

    // Mixed: the good recipient gets it, the other is refused.
    const mixed = await transport().sendMail({ from: "c@example.com", to: ["ok@in.alpha.test", "no@nowhere.test"], subject: "Mixed", text: "x" });
    expect(mixed.accepted).toEqual(["ok@in.alpha.test"]);
    expect(mixed.rejected).toEqual(["no@nowhere.test"]);
  });
});
