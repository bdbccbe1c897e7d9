import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { listAudit, recordAudit, SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { auditLog } from "@/lib/server/db/schema/core";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { templateSamples } from "@/lib/server/db/schema/template-samples";
import { savedViews } from "@/lib/server/db/schema/saved-views";
import { recordEvent, recordEvents } from "@/lib/server/message-index/record-event";
import { refreshInsight } from "@/lib/server/insight/refresh";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import type { Project } from "@/lib/server/gate/access";
import type { Message } from "@/lib/schemas/emails";
import { POST as ERASE } from "./route";
import { linkPeopleRollup } from "@/lib/test/link-people";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Erasing one recipient through its route: what goes, what stays, what the audit log keeps,
 * and that the event stream and later reads do not bring the erased data back.
 */
const ADA = "ada@example.com";
let dispose: () => Promise<void>;
let project: Project;
let other: Project;
const cookies: Record<string, string> = {};

const send = (id: string, p: Project, to: string[], extra: { cc?: string[]; from?: string } = {}) => ({
  projectId: p.id,
  messageId: id,
  request: { from: { email: extra.from ?? "news@acme.test" }, to: to.map((email) => ({ email })), ...(extra.cc ? { cc: extra.cc.map((email) => ({ email })) } : {}), subject: "Your order", text: "Hello" },
  sentBy: null,
  idempotencyKey: null,
  source: "dashboard" as const,
});

const erase = async (email: string, body: unknown, cookie = cookies.support) =>
  ERASE(await apiRequest(`/api/p/acme/recipients/${encodeURIComponent(email)}/erase`, { method: "POST", body, cookie }), params({ project: "acme", email: encodeURIComponent(email) }));

beforeAll(async () => {
  setTestEnv({});
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "acme", name: "Acme" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  other = await registerProject({ externalId: "other", name: "Other" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  for (const role of ["admin", "support", "marketer"] as const) {
    cookies[role] = await sessionCookie((await createUser(createUserRequest.parse({ email: `${role}@staff.test`, role, password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  }
  await recordSentMessages([
    send("m-alone", project, ["Ada Lovelace <ADA@example.com>"]),
    send("m-shared", project, ["bob@example.com"], { cc: [ADA] }),
    send("m-own-sender", project, ["carl@example.com"], { from: ADA }),
    send("m-bob", project, ["bob@example.com"]),
    send("m-other-project", other, [ADA]),
  ]);
  const d = await db();
  // Inbound mail from Ada.
  await d.insert(indexedMessages).values({ id: "m-inbound", projectId: project.id, direction: "inbound", status: "received", from: ADA, to: ["support@acme.test"], source: "webhook", createdAt: new Date() });
  await d.insert(indexedRecipients).values({ messageId: "m-inbound", projectId: project.id, email: ADA, role: "from", createdAt: new Date() });
  await d.insert(indexedEvents).values([
    { messageId: "m-alone", projectId: project.id, type: "delivery", occurredAt: new Date(), webhookId: "w1" },
    { messageId: "m-shared", projectId: project.id, type: "bounce", occurredAt: new Date(), data: { recipient: ADA, reason: "mailbox full" }, webhookId: "w2" },
    { messageId: "m-shared", projectId: project.id, type: "delivery", occurredAt: new Date(), data: { recipient: "bob@example.com" }, webhookId: "w3" },
    { messageId: "m-alone", projectId: project.id, type: "click", occurredAt: new Date(), data: { link: "https://acme.test/order?id=1" }, webhookId: "w4" },
  ]);
  await d.insert(contactsIndex).values([
    { projectId: project.id, id: "c-ada", email: ADA, subscribed: true, source: "import", createdAt: new Date() },
    { projectId: project.id, id: "c-bob", email: "bob@example.com", subscribed: true, source: "import", createdAt: new Date() },
    { projectId: other.id, id: "c-ada-2", email: ADA, subscribed: true, source: "import", createdAt: new Date() },
  ]);
  for (const [id, status] of [["job-done", "done"], ["job-running", "running"]] as const) {
    await d.insert(batchJobs).values({ id, projectId: project.id, projectExternalId: "acme", kind: "send", status, totalRows: 2, createdByEmail: "m@staff.test" });
  }
  await d.insert(batchRows).values([
    { jobId: "job-done", row: 2, email: "Ada@Example.com", name: "Ada", data: { plan: "pro" }, status: "sent", messageId: "m-alone" },
    { jobId: "job-done", row: 3, email: "bob@example.com", name: "Bob", status: "sent" },
    { jobId: "job-running", row: 2, email: ADA, name: "Ada", status: "pending" },
  ]);
  await d.insert(templateSamples).values([
    { projectId: project.id, templateId: "t1", name: "Ada's order", data: { customer: { email: "ada@EXAMPLE.com" } }, createdBy: "m@staff.test" },
    { projectId: project.id, templateId: "t1", name: "Anyone", data: { customer: { email: "x@example.com" } }, createdBy: "m@staff.test" },
  ]);
  const owner = (await createUser(createUserRequest.parse({ email: "views@staff.test", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id;
  await d.insert(savedViews).values([
    { projectId: project.id, ownerId: owner, name: "Ada's bounces", state: new URLSearchParams({ q: "to:ADA@example.com status:bounced" }).toString() },
    { projectId: project.id, ownerId: owner, name: "All bounces", state: "q=status%3Abounced" },
    { projectId: other.id, ownerId: owner, name: "Ada elsewhere", state: new URLSearchParams({ q: `to:${ADA}` }).toString() },
  ]);
  await recordAudit({ actor: SYSTEM_ACTOR, action: "suppression.add", project: "acme", target: ADA, outcome: "success", detail: { email: ADA, note: `added ${ADA} by hand` } });
  await recordAudit({ actor: SYSTEM_ACTOR, action: "suppression.add", project: "other", target: ADA, outcome: "success" });
});
afterAll(async () => dispose());

const exists = async (id: string) => (await (await db()).select({ id: indexedMessages.id }).from(indexedMessages).where(eq(indexedMessages.id, id))).length === 1;

describe("erasing a recipient", () => {
  it("is refused to marketers, and needs the address repeated in the body", async () => {
    expect((await erase(ADA, { confirmEmail: ADA }, cookies.marketer)).status).toBe(403);
    const mismatch = await erase(ADA, { confirmEmail: "bob@example.com" });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).error.param).toBe("confirmEmail");
    expect((await erase(ADA, {})).status).toBe(400);
    expect(await exists("m-alone")).toBe(true);
  });

  it("removes the address from the dashboard's records of this project and records it by its hash only", async () => {
    // Insight has counted Ada's messages and her click before she asks.
    await refreshInsight();
    const before = rowsOf<{ n: number }>(await (await db()).execute(sql`select count(*)::int as n from insight_link_recipients where recipient = ${ADA}`));
    expect(before[0].n).toBe(1);
    const res = await erase("Ada@Example.com", { confirmEmail: ADA });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ messagesDeleted: 2, messagesStripped: 1, redacted: 1, contacts: 1, batchRows: 2, templateSamples: 1, savedViews: 1, auditEntries: 1 });
    const d = await db();

    // Messages only Ada got or sent are gone; the shared one stays without her; others untouched.
    expect(await exists("m-alone")).toBe(false);
    expect(await exists("m-inbound")).toBe(false);
    for (const id of ["m-shared", "m-own-sender", "m-bob", "m-other-project"]) expect(await exists(id)).toBe(true);
    // Mail the project sent *from* the address stays, the address replaced by its hash.
    expect((await d.select({ from: indexedMessages.from }).from(indexedMessages).where(eq(indexedMessages.id, "m-own-sender")))[0].from).toBe(addressHash(ADA));
    const [shared] = await d.select().from(indexedMessages).where(eq(indexedMessages.id, "m-shared"));
    expect([shared.to, shared.cc]).toEqual([["bob@example.com"], []]);
    expect(await d.select({ email: indexedRecipients.email }).from(indexedRecipients).where(eq(indexedRecipients.messageId, "m-shared"))).not.toContainEqual({ email: ADA });
    expect((await d.select({ w: indexedEvents.webhookId }).from(indexedEvents).where(eq(indexedEvents.messageId, "m-shared"))).map((e) => e.w)).toEqual(["w3"]);
    expect(await d.select().from(indexedEvents).where(eq(indexedEvents.messageId, "m-alone"))).toHaveLength(0);

    expect((await d.select({ id: contactsIndex.id }).from(contactsIndex)).map((c) => c.id).sort()).toEqual(["c-ada-2", "c-bob"]);
    const rows = await d.select().from(batchRows).orderBy(batchRows.jobId, batchRows.row);
    const hash = addressHash(ADA);
    expect(rows.map((r) => [r.jobId, r.row, r.email, r.name, r.status, r.errorCode])).toEqual([
      ["job-done", 2, hash, null, "sent", null],
      ["job-done", 3, "bob@example.com", "Bob", "sent", null],
      ["job-running", 2, hash, null, "invalid", "erased"],
    ]);
    expect((await d.select({ name: templateSamples.name }).from(templateSamples)).map((s) => s.name)).toEqual(["Anyone"]);
    expect((await d.select({ name: savedViews.name }).from(savedViews)).map((v) => v.name).sort()).toEqual(["Ada elsewhere", "All bounces"]);

    // The audit log: the erasure by hash, earlier entries of this project scrubbed, another project's left alone.
    const all = await d.select().from(auditLog);
    const mentions = all.filter((e) => JSON.stringify(e).toLowerCase().includes(ADA));
    expect(mentions.map((e) => e.project)).toEqual(["other"]);
    const entry = all.find((e) => e.action === "recipient.erase" && e.outcome === "success")!;
    expect(entry).toMatchObject({ target: hash, actorEmail: "support@staff.test", project: "acme" });
    // An admin who knows the address finds the erasure by searching for it.
    expect((await listAudit(auditQuery.parse({ q: "ADA@example.com", action: "recipient.erase", outcome: "success" }))).data.map((e) => e.id)).toEqual([entry.id]);
    expect(hash).toMatch(/^erased:[0-9a-f]{40}$/);
    // Before any refresh: the address is out of insight's facts and link clickers, the messages marked.
    expect(rowsOf(await d.execute(sql`select 1 from insight_facts where project_id = ${project.id} and recipient = ${ADA} union all select 1 from insight_link_recipients where project_id = ${project.id} and recipient = ${ADA}`))).toEqual([]);
    expect(rowsOf(await d.execute(sql`select message_id from insight_dirty where message_id in ('m-alone', 'm-shared') order by message_id`))).toEqual([{ message_id: "m-alone" }, { message_id: "m-shared" }]);
  });

  it("leaves insight as if the erased messages had never been indexed, and the address nowhere in it", async () => {
    const d = await db();
    // The refresher ran before the erasure (beforeAll's messages) and runs again after it.
    const figures = async () => {
      const [h] = rowsOf<{ sent: number; clicked: number }>(
        await d.execute(sql`select coalesce(sum(sent), 0)::int as sent, coalesce(sum(clicked), 0)::int as clicked from insight_hourly where project_id = ${project.id}`),
      );
      const [l] = rowsOf<{ messages: number }>(await d.execute(sql`select coalesce(sum(messages), 0)::int as messages from insight_link_hourly where project_id = ${project.id}`));
      const mentions = rowsOf(
        await d.execute(sql`select 1 from insight_facts where project_id = ${project.id} and recipient = ${ADA} union all select 1 from insight_link_recipients where project_id = ${project.id} and recipient = ${ADA}`),
      ).length;
      return { sent: h.sent, clicked: h.clicked, linkClicks: l.messages, mentions };
    };
    // m-shared, m-own-sender and m-bob are left of the project's outbound mail; m-alone's click went with it.
    await refreshInsight();
    expect(await figures()).toEqual({ sent: 3, clicked: 0, linkClicks: 0, mentions: 0 });
    const people = await linkPeopleRollup(d);
    expect(people.rollup).toEqual(people.recount);
  });

  it("keeps erased messages out when the service announces or returns them again", async () => {
    const d = await db();
    const fromService = (id: string, to: string[], cc: string[] = []): Message =>
      ({ id, from: "news@acme.test", to, cc, subject: "Your order", status: "delivered", direction: "outbound", createdAt: new Date().toISOString(), events: [] }) as unknown as Message;
    // A late event for a deleted message does not recreate it.
    const event = { messageId: "m-alone", type: "open", occurredAt: new Date(), details: { recipient: ADA }, direction: "outbound" as const, from: null, to: [ADA], subject: null, html: null, text: null };
    expect(await recordEvent(project.id, "late-1", event, 60_000)).toBe(false);
    expect(await exists("m-alone")).toBe(false);
    expect(await d.select().from(indexedEvents).where(eq(indexedEvents.messageId, "m-alone"))).toHaveLength(0);
    // Nor does a batch of the ingest's group commit, where the other messages are indexed as ever.
    const late = (messageId: string) => ({ ...event, messageId, to: ["carol@example.com"] });
    const fresh = await recordEvents(
      [
        { projectId: project.id, key: "late-2", event: late("m-alone") },
        { projectId: project.id, key: "late-3", event: late("m-grouped") },
        { projectId: project.id, key: "late-4", event: { ...late("m-alone"), type: "click" } },
      ],
      60_000,
    );
    expect(fresh).toEqual([false, true, false]);
    expect([await exists("m-alone"), await exists("m-grouped")]).toEqual([false, true]);
    expect(rowsOf(await d.execute(sql`select message_id from message_rereads where message_id in ('m-alone', 'm-grouped')`))).toEqual([{ message_id: "m-grouped" }]);
    expect(rowsOf(await d.execute(sql`select message_id from insight_dirty where message_id in ('m-alone', 'm-grouped')`))).toEqual([{ message_id: "m-grouped" }]);
    // A re-read or look-up of it does not either, and the shared message comes back without Ada.
    await indexServiceMessage(project.id, fromService("m-alone", [ADA]));
    expect(await exists("m-alone")).toBe(false);
    await indexServiceMessage(project.id, fromService("m-shared", ["bob@example.com"], ["Ada <ada@example.com>"]));
    const [shared] = await d.select().from(indexedMessages).where(eq(indexedMessages.id, "m-shared"));
    expect(shared.cc).toEqual([]);
    expect(await d.select().from(indexedRecipients).where(and(eq(indexedRecipients.messageId, "m-shared"), eq(indexedRecipients.email, ADA)))).toHaveLength(0);
    // Other messages are indexed as ever, without the address (lib/server/redaction/redactor.ts).
    await indexServiceMessage(project.id, fromService("m-new", [ADA, "carol@example.com"]));
    expect((await d.select({ to: indexedMessages.to }).from(indexedMessages).where(eq(indexedMessages.id, "m-new")))[0].to).toEqual(["carol@example.com"]);
    expect(rowsOf(await d.execute(sql`select message_id, deleted from erased_messages order by message_id`))).toEqual([
      { message_id: "m-alone", deleted: true },
      { message_id: "m-inbound", deleted: true },
      { message_id: "m-shared", deleted: false },
    ]);
  });
});
