import { and, eq } from "drizzle-orm";
import type { Logger } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { settleAfterResponses } from "@/lib/server/http/after-response";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { registerProject } from "@/lib/server/projects";
import { eraseRecipient } from "@/lib/server/retention/erase";
import { json, type TestServer } from "@/lib/server/test-helpers";
import { getMessageDetail } from "./detail";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";

/**
 * Issue 15: reading one message costs one statement on the index (its row and its
 * conversation together) plus the service's answer, and writes only what the answer changed.
 * Every statement the dashboard's database runs and every request the service gets land in
 * one log, in order.
 */
let close: () => Promise<void>;
let service: TestServer;
let project: Project;
const log: string[] = [];
/** What the service answers for msg_1: a status and its events; tags, headers and cc exercise jsonb's own key order. */
let answer = { status: "sent", events: [{ type: "queued", createdAt: "2026-01-01T00:00:01Z" }, { type: "sent", createdAt: "2026-01-01T00:00:02Z" }] };

const statements = () => log.filter((l) => l.startsWith("sql "));
const writesTo = (table: string) => statements().filter((s) => s.toLowerCase().startsWith(`sql insert into "${table}"`)).length;
const writes = () => statements().filter((s) => /^sql (insert|update|delete)\b/i.test(s)).length;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    log.push(`service ${req.method} ${req.url}`);
    const threaded = req.url === "/v1/emails/msg_3";
    if (req.url === "/v1/emails/msg_1" || threaded) {
      return json(res, 200, {
        id: threaded ? "msg_3" : "msg_1",
        ...(threaded ? { threadId: "thr-1" } : {}),
        from: "Shop <shop@acme.test>",
        to: ["ada@example.com"],
        cc: ["ops@acme.test"],
        subject: "Your order",
        direction: "outbound",
        createdAt: "2026-01-01T00:00:00Z",
        tags: [{ value: "receipt", name: "kind" }],
        headers: { "X-Order-Reference": "A-1", B: "2" },
        text: "Thanks for your order.",
        ...answer,
      });
    }
    // The service keeps an address the project erased: in cc, the body and the subject.
    if (req.url === "/v1/emails/msg_5") {
      return json(res, 200, {
        id: "msg_5",
        from: "Shop <shop@acme.test>",
        to: ["ada@example.com"],
        cc: ["Bob <bob@example.org>"],
        subject: "Your order (bob@example.org)",
        direction: "outbound",
        status: "delivered",
        createdAt: "2026-01-02T00:00:00Z",
        text: "Bob (bob@example.org, bob%40example.org) is copied.",
        html: "<p>Bob &#64; <a href=\"mailto:bob%40example.org\">bob@example.org</a></p>",
        events: [{ type: "delivered", createdAt: "2026-01-02T00:00:05Z", data: { recipient: "ada@example.com" } }],
      });
    }
    if (req.url?.endsWith("/attachments")) return json(res, 200, { data: [] });
    return json(res, 404, { error: { message: "Not found", code: "not_found" } });
  }, { PUBLIC_URL: "http://dash.test:3000" }));
  // Every statement, inside transactions too (a transaction's session is made from these options).
  const counter: Logger = { logQuery: (query) => void log.push(`sql ${query.trim().replace(/\s+/g, " ")}`) };
  const session = (await db() as unknown as { session: { logger: Logger; options: { logger?: Logger } } }).session;
  session.logger = counter;
  session.options.logger = counter;
  // No event stream: the read cache keeps nothing, so every read asks the service.
  project = await registerProject({ externalId: "shop" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  // The first read indexes the message; a reply the dashboard recorded makes a conversation.
  await getMessageDetail(project, "msg_1");
  await indexServiceMessage(project.id, { id: "msg_2", from: "ada@example.com", to: ["shop@acme.test"], subject: "Re: Your order", status: "received", direction: "inbound", createdAt: "2026-01-01T01:00:00Z", events: [] }, { inReplyTo: "msg_1" });
  // A thread the service names: msg_3 and msg_4.
  await getMessageDetail(project, "msg_3");
  await indexServiceMessage(project.id, { id: "msg_4", from: "ada@example.com", to: ["shop@acme.test"], subject: "Re: Your order", status: "received", direction: "inbound", createdAt: "2026-01-01T02:00:00Z", threadId: "thr-1", events: [] });
  await settleAfterResponses();
});
afterAll(() => close());
beforeEach(async () => {
  await settleAfterResponses();
  log.length = 0;
});

describe("reading one message", () => {
  it("costs one statement on the index, made before the service is asked, and writes nothing when the answer is what the index holds", async () => {
    const detail = await getMessageDetail(project, "msg_1");
    await settleAfterResponses();
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).toMatch(/^sql select .*with recursive/i);
    expect(log.indexOf(statements()[0])).toBeLessThan(log.indexOf("service GET /v1/emails/msg_1"));
    expect(writes()).toBe(0);
    // That one statement brought the conversation.
    expect(detail.thread.map((m) => m.id)).toEqual(["msg_1", "msg_2"]);
    expect(detail.message.status).toBe("sent");
  });

  it("writes the message once when the service reports a newer status, and reads the index no more", async () => {
    answer = { status: "delivered", events: [...answer.events, { type: "delivered", createdAt: "2026-01-01T00:00:05Z" }] };
    const detail = await getMessageDetail(project, "msg_1");
    await settleAfterResponses();
    expect(detail.message.status).toBe("delivered");
    expect(detail.thread.map((m) => m.id)).toEqual(["msg_1", "msg_2"]);
    expect(writesTo("indexed_messages")).toBe(1);
    expect(statements().filter((s) => /with recursive/i.test(s))).toHaveLength(1);
    const [row] = await (await db()).select().from(indexedMessages).where(and(eq(indexedMessages.projectId, project.id), eq(indexedMessages.id, "msg_1")));
    expect(row).toMatchObject({ status: "delivered", lastEventAt: new Date("2026-01-01T00:00:05Z") });

    // What was written is what the next read compares with: nothing new, nothing written.
    log.length = 0;
    await getMessageDetail(project, "msg_1");
    await settleAfterResponses();
    expect(statements()).toHaveLength(1);
    expect(writes()).toBe(0);
  });

  it("writes nothing on a second read of a message an erasure redacted: the answer is compared as it would be written", async () => {
    const support: Actor = { id: "u-support", email: "sue@acme.test", name: null, role: "support", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s" };
    await getMessageDetail(project, "msg_5");
    await eraseRecipient(project, support, "bob@example.org", { confirmEmail: "bob@example.org" });
    const rowOf5 = async () => (await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "msg_5")))[0];
    const erased = await rowOf5();
    expect(erased.cc).toEqual([]);
    expect(JSON.stringify(erased)).not.toMatch(/bob(@|%40)example/);

    for (const _ of [1, 2]) {
      log.length = 0;
      const detail = await getMessageDetail(project, "msg_5");
      await settleAfterResponses();
      expect(detail.message.status).toBe("delivered");
      expect(statements()).toHaveLength(1);
      expect(writes()).toBe(0);
    }
    expect(await rowOf5()).toEqual(erased);
  });

  it("reads a thread the service names in the same statement, and writes a change after the answer", async () => {
    answer = { status: "bounced", events: [...answer.events, { type: "bounced", createdAt: "2026-01-01T00:00:09Z" }] };
    const detail = await getMessageDetail(project, "msg_3");
    await settleAfterResponses();
    expect(detail.thread.map((m) => m.id)).toEqual(["msg_3", "msg_4"]);
    expect(statements().filter((s) => /with recursive/i.test(s))).toHaveLength(1);
    expect(log.indexOf(statements()[0])).toBeLessThan(log.indexOf("service GET /v1/emails/msg_3"));
    expect(writesTo("indexed_messages")).toBe(1);
    const [row] = await (await db()).select().from(indexedMessages).where(and(eq(indexedMessages.projectId, project.id), eq(indexedMessages.id, "msg_3")));
    expect(row.status).toBe("bounced");
  });
});
