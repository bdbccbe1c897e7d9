import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Actor, Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { rememberContacts } from "@/lib/server/contacts/index-store";
import { storeCheckedJob } from "@/lib/server/batches/store";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { batchRows } from "@/lib/server/db/schema/batches";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { indexedEvents, indexedMessages } from "@/lib/server/db/schema/messages";
import { recordEvent } from "@/lib/server/message-index/record-event";
import { getMessageDetail } from "@/lib/server/messages/detail";
import { clearMessageCache } from "@/lib/server/message-index/read";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { replyToMessage } from "@/lib/server/messages/reply";
import { searchMessages } from "@/lib/server/messages/search";
import { simulateInbound } from "@/lib/server/messages/simulate";
import { registerProject } from "@/lib/server/projects";
import { reconcileOnce } from "@/lib/server/event-stream/reconciler";
import { drainRereads, resetRereadWorkerMemory } from "@/lib/server/message-index/reread-worker";
import { saveSample } from "@/lib/server/templates/manage";
import { setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { foreignMessage, startForeignService, type ForeignMessage, type ForeignService } from "@/lib/test/foreign-service";
import { tablesNaming, tablesNamingEscaped } from "@/lib/test/naming";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { eraseRecipient } from "./erase";
import { messageListQuery } from "@/lib/schemas/messages-index";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Issue 25, finding 4: an erasure holds. After erasing an address nothing in the dashboard's
 * database names it — kept messages' subjects, bodies, headers and merge data, events, batch
 * rows, contacts, samples — and no writer that comes later brings it back: a read of the
 * service, a late delivery, the re-read worker, the reconciler, a reply, a send, an inbound
 * simulation, a contact look-up, a batch file, a sample set. The service (a real HTTP one,
 * lib/test/foreign-service.ts) keeps the address in everything it answers. Runs on PGlite and,
 * with TEST_DATABASE_URL, on Postgres.
 */
const ERASED = "erase-me@example.com";
const FORMS = [ERASED, "erase-me%40example.com"];
/** The address escaped as pages, links and mail bodies escape it (issue 25: these survived an erasure). */
const ESCAPED_HTML = `<p>erase-me&#64;example.com, erase-me&#x40;example.com, erase-me&commat;example.com <a href="mailto:&#101;&#114;&#97;&#115;&#101;&#45;&#109;&#101;&#64;&#101;&#120;&#97;&#109;&#112;&#108;&#101;&#46;&#99;&#111;&#109;">x</a></p>`;
const ESCAPED_TEXT = "\nor erase-me=40example.com, erase-me@exam=\r\nple.com, erase%2Dme%40example%2Ecom";

let dispose: () => Promise<void>;
let foreign: ForeignService;
let project: Project;
let actor: Actor;
let hash: string;

const env = () => setTestEnv({ SERVICE_URL: foreign.url, PUBLIC_URL: "http://dash.test:3000", REREAD_COALESCE_MS: "1", SERVICE_TIMEOUT_MS: "8000" });

/** Tables naming the address, written plainly (SQL) or escaped in any way a reader decodes. */
const tablesNamingIt = async () => ({ ...(await tablesNamingEscaped(await db(), ERASED)), ...(await tablesNaming(await db(), FORMS)) });

/** A message of the service, with what the interface's shape leaves open (bodies, headers) filled in: the service keeps the address everywhere. */
const serviceMessage = (id: string, extra: Partial<ForeignMessage> & Record<string, unknown> = {}) =>
  foreignMessage(id, "Sent", {
    to: ["bob@example.com", "Erase Me <ERASE-ME@example.com>"],
    subject: `Order for Erase-Me@Example.com`,
    events: [
      { type: "email.sent", createdAt: new Date(Date.now() - 1_000).toISOString(), data: { recipient: "Erase-Me@example.com" } },
      { type: "email.bounced", createdAt: new Date().toISOString(), data: { recipient: ERASED, diagnostic: `550 <${ERASED}>: no such user` } },
    ],
    ...extra,
  } as Partial<ForeignMessage>);

beforeAll(async () => {
  foreign = await startForeignService();
  env();
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "foreign" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const { user } = await createUser(createUserRequest.parse({ email: "support@staff.test", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR);
  actor = { id: user.id, email: user.email, name: null, role: "support", active: true, allProjects: true, projectIds: [], sessionId: "s", authAt: null };
  hash = addressHash(ERASED);

  // What the dashboard holds before the erasure: a message sent to Bob and the address, whose
  // subject, bodies, headers and merge data name it too; one to Bob alone whose body and events
  // mention it; a batch job with its row and another row whose data mentions it; contacts; a sample set.
  await recordSentMessages([
    {
      projectId: project.id,
      messageId: "em-kept",
      request: {
        from: { email: "shop@acme.test", name: "Shop" },
        to: [{ email: "bob@example.com" }, { email: "Erase-Me@Example.com", name: "Erase Me" }],
        subject: "Order for Erase-Me@Example.com",
        html: `<p>Dear <a href="mailto:ERASE-ME@example.com">erase-me@example.com</a>, <a href="https://acme.test/unsub?e=erase-me%40example.com">unsubscribe</a></p>${ESCAPED_HTML}`,
        text: `Dear erase-me@example.com${ESCAPED_TEXT}`,
        headers: { "X-Customer": "Erase Me <erase-me@example.com>" },
        templateId: "t-order",
        data: { customer: { email: "erase-me@example.com" } },
      },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard",
    },
    {
      projectId: project.id,
      messageId: "em-bob",
      request: { from: { email: "shop@acme.test" }, to: [{ email: "bob@example.com" }], subject: "Hello Bob", text: "Your friend erase-me@example.com says hi", html: `<a href="https://t.test/c?u=https%3A%2F%2Facme.test%2Fp%3Fe%3Derase%252Dme%2540example.com">Your friend</a>` },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard",
    },
    {
      // Only escaped: the letters too, with the `@` escaped or not.
      projectId: project.id,
      messageId: "em-carol",
      request: { from: { email: "shop@acme.test" }, to: [{ email: "carol@example.com" }], subject: "Hello Carol", text: "From &#101;rase-me@example.com", html: `<a href="https://t.test/?u=%65%72%61%73%65%2D%6D%65%40%65%78%61%6D%70%6C%65%2E%63%6F%6D">x</a>` },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard",
    },
  ]);
  await recordEvent(project.id, "before-1", { messageId: "em-bob", type: "delivery", occurredAt: new Date(), direction: "outbound", from: null, to: null, subject: null, html: null, text: null, details: { note: `forwarded by ${ERASED}` } }, 60_000);
  const d = await db();
  const content = { from: { email: "shop@acme.test" }, subject: `News for erase-me&#64;example.com`, html: `<p>Ask erase-me&commat;example.com</p>`, text: "Ask erase%2Dme%40example.com" };
  await d.execute(sql`
    insert into batch_jobs (id, project_id, project_external_id, kind, status, total_rows, created_by_email, file_name, content)
    values ('job-1', ${project.id}, 'foreign', 'send', 'done', 2, 'm@staff.test', 'from erase-me@example.com.csv', ${JSON.stringify(content)}::jsonb)`);
  await d.insert(batchRows).values([
    { jobId: "job-1", row: 2, email: "ERASE-ME@example.com", name: "Erase Me", data: { plan: "pro" }, status: "failed", errorMessage: `550 ${ERASED} unknown` },
    { jobId: "job-1", row: 3, email: "bob@example.com", name: "Bob", data: { referrer: "erase-me@example.com" }, status: "sent" },
  ]);
  await d.insert(contactsIndex).values([
    { projectId: project.id, id: "c-erased", email: ERASED, subscribed: true, source: "import", createdAt: new Date() },
    { projectId: project.id, id: "c-bob", email: "bob@example.com", subscribed: true, metadata: { friend: "erase-me@example.com" }, source: "import", createdAt: new Date() },
  ]);
  await d.execute(sql`delete from message_rereads`);
});
afterAll(async () => {
  await dispose();
  await foreign.close();
});

describe("an erasure that holds", () => {
  it("leaves no record of the project naming the address, and keeps what is not the address", async () => {
    expect(Object.keys(await tablesNamingIt()).sort()).toEqual(["batch_jobs", "batch_rows", "contacts_index", "indexed_events", "indexed_messages", "indexed_recipients"]);
    const result = await eraseRecipient(project, actor, ERASED, { confirmEmail: ERASED });
    expect(result).toMatchObject({ messagesDeleted: 0, messagesStripped: 1, contacts: 1, batchRows: 1 });
    expect(await tablesNamingIt()).toEqual({});

    const [kept] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-kept"));
    expect(kept).toMatchObject({ to: ["bob@example.com"], subject: `Order for ${hash}`, headers: { "X-Customer": `Erase Me <${hash}>` }, templateData: { customer: { email: hash } } });
    expect(kept!.html).toBe(`<p>Dear <a href="mailto:${hash}">${hash}</a>, <a href="https://acme.test/unsub?e=${hash}">unsubscribe</a></p><p>${hash}, ${hash}, ${hash} <a href="mailto:${hash}">x</a></p>`);
    expect(kept!.text).toBe(`Dear ${hash}\nor ${hash}, ${hash}, ${hash}`);
    const [job] = rowsOf<{ file_name: string; content: Record<string, string> }>(await (await db()).execute(sql`select file_name, content from batch_jobs where id = 'job-1'`));
    expect(job).toMatchObject({ file_name: `from ${hash}.csv`, content: { subject: `News for ${hash}`, html: `<p>Ask ${hash}</p>`, text: `Ask ${hash}` } });
    const [bob] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-bob"));
    expect(bob!.text).toBe(`Your friend ${hash} says hi`);
    const [carol] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-carol"));
    expect(carol).toMatchObject({ text: `From ${hash}`, html: `<a href="https://t.test/?u=${hash}">x</a>` });
    expect((await (await db()).select().from(batchRows).where(eq(batchRows.row, 3)))[0]).toMatchObject({ email: "bob@example.com", name: "Bob", data: { referrer: hash } });
    // The failed row of the address is not sent again by "retry failed rows".
    expect((await (await db()).select().from(batchRows).where(eq(batchRows.row, 2)))[0]).toMatchObject({ email: hash, status: "invalid", errorCode: "erased" });
    expect((await (await db()).select().from(contactsIndex).where(eq(contactsIndex.id, "c-bob")))[0]!.metadata).toEqual({ friend: hash });
  });

  it("a read of the message from the service (the message screen) does not write it back", async () => {
    foreign.messages.set("em-kept", serviceMessage("em-kept", { html: `<b>${ERASED}</b>`, headers: { To: ERASED } }));
    clearMessageCache();
    const detail = await getMessageDetail(project, "em-kept");
    expect(detail.message.id).toBe("em-kept");
    const read = await (await db()).select().from(indexedEvents).where(and(eq(indexedEvents.messageId, "em-kept"), eq(indexedEvents.origin, "read")));
    expect(read.length).toBe(2);
    expect(await tablesNamingIt()).toEqual({});
  });

  it("a late delivery, for the kept message or one the index never had, does not write it back", async () => {
    const late = { type: "bounce", occurredAt: new Date(), direction: "outbound" as const, from: "Shop <shop@acme.test>", html: `<p>${ERASED}</p>`, text: null };
    expect(await recordEvent(project.id, "late-1", { ...late, messageId: "em-kept", to: [ERASED], subject: null, details: { recipient: ERASED.toUpperCase() } }, 0)).toBe(true);
    expect(
      await recordEvent(project.id, "late-2", { ...late, messageId: "em-late", to: ["Erase Me <erase-me@example.com>", "carol@example.com"], subject: `Hello erase-me@example.com`, details: { recipient: ERASED } }, 0),
    ).toBe(true);
    expect(await tablesNamingIt()).toEqual({});
    const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-late"));
    expect(row).toMatchObject({ to: ["carol@example.com"], subject: `Hello ${hash}` });
  });

  it("the re-read worker, reading those messages from the service, does not write it back", async () => {
    foreign.messages.set("em-late", serviceMessage("em-late", { to: ["carol@example.com", ERASED], subject: `Hello ${ERASED}` }));
    resetRereadWorkerMemory();
    const before = foreign.reads("em-late");
    await drainRereads();
    expect(foreign.reads("em-late")).toBeGreaterThan(before);
    expect(await tablesNamingIt()).toEqual({});
  });

  it("the reconciler's reads do not write it back", async () => {
    const d = await db();
    await d.update(indexedMessages).set({ status: "sent", createdAt: new Date(Date.now() - 30 * 60_000), checkedAt: null }).where(eq(indexedMessages.id, "em-kept"));
    const before = foreign.reads("em-kept");
    const report = await reconcileOnce();
    expect(report!.find((r) => r.projectId === project.id)!.queued).toBeGreaterThan(0);
    resetRereadWorkerMemory();
    await drainRereads();
    expect(foreign.reads("em-kept")).toBeGreaterThan(before);
    expect(await tablesNamingIt()).toEqual({});
  });

  it("a reply does not write it back, whether it is read back at once or not", async () => {
    const reply = await replyToMessage(project, actor, "em-kept", { text: `Hi ${ERASED.toUpperCase()}`, subject: `Re: for ${ERASED}`, idempotencyKey: "reply-key-0000000001" });
    expect(foreign.reads(reply.id)).toBe(1);
    expect(await tablesNamingIt()).toEqual({});
    // The service cannot be read now: the index keeps what the dashboard recorded of the reply.
    foreign.rateLimit(1_000);
    try {
      const unread = await replyToMessage(project, actor, "em-kept", { text: `Hello again ${ERASED}`, subject: `Re: ${ERASED}`, idempotencyKey: "reply-key-0000000002" });
      const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, unread.id));
      expect(row).toMatchObject({ to: ["bob@example.com"], subject: `Re: ${hash}`, text: `Hello again ${hash}` });
    } finally {
      foreign.rateLimit(0);
    }
    expect(await tablesNamingIt()).toEqual({});
  });

  it("a new send, an inbound simulation, a contact, a batch file and a sample set do not write it back", async () => {
    await recordSentMessages([
      {
        projectId: project.id,
        messageId: "em-new",
        request: { from: { email: "shop@acme.test" }, to: [{ email: ERASED, name: "Erase Me" }, { email: "dan@example.com" }], subject: `Hi ${ERASED}`, text: ERASED },
        sentBy: actor.id,
        idempotencyKey: null,
        source: "dashboard",
      },
    ]);
    await simulateInbound(project, actor, { from: ERASED, to: "support@acme.test", subject: `From ${ERASED}`, text: `I am ${ERASED}` });
    await rememberContacts(
      project.id,
      [
        { id: "c-erased", email: "Erase-Me@example.com", firstName: "Erase", lastName: "Me", subscribed: true, unsubscribedAt: null, metadata: {}, createdAt: new Date().toISOString() },
        { id: "c-bob", email: "bob@example.com", firstName: null, lastName: null, subscribed: true, unsubscribedAt: null, metadata: { friend: ERASED }, createdAt: new Date().toISOString() },
      ],
      "lookup",
    );
    const job = {
      ...{ id: "job-2", projectId: project.id, projectExternalId: "foreign", kind: "send" as const, totalRows: 0, createdByEmail: "m@staff.test" },
      ...{ fileName: `${ERASED}.csv`, content: { from: { email: "shop@acme.test" }, subject: `Hi erase-me&#x40;example.com`, text: `Ask erase-me=40example.com` } },
    };
    await storeCheckedJob(
      job,
      async (sink) => {
        await sink([
          { row: 2, email: "Erase-Me@Example.com", name: "Erase Me", data: { plan: "pro" }, status: "pending", error: null },
          { row: 3, email: "dan@example.com", name: "Dan", data: { referrer: ERASED }, status: "pending", error: null },
        ]);
        return { total: 2, toSend: 2 } as never;
      },
      (_summary, activate) => activate(),
    );
    await saveSample(project, actor, "t-order", { name: "Customer", data: { customer: { email: ERASED } } });
    expect(await tablesNamingIt()).toEqual({});

    // What is not the address stays, and the erased recipient's row is not sent.
    const rows = await (await db()).select().from(batchRows).where(eq(batchRows.jobId, "job-2")).orderBy(batchRows.row);
    expect(rows.map((r) => [r.email, r.status, r.data])).toEqual([
      [hash, "invalid", {}],
      ["dan@example.com", "pending", { referrer: hash }],
    ]);
    expect(rowsOf(await (await db()).execute(sql`select rows from batch_chunks where job_id = 'job-2'`)).map((c) => c.rows)).toEqual([[3]]);
    expect((await (await db()).select().from(contactsIndex).where(eq(contactsIndex.projectId, project.id))).map((c) => c.id)).toEqual(["c-bob"]);
    const [sent] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-new"));
    expect(sent).toMatchObject({ to: ["dan@example.com"], subject: `Hi ${hash}` });
  });

  it("search by the address, or by part of it, finds nothing", async () => {
    // The search language's address terms too (issue 28), whole or in part.
    const terms = ["to", "from", "cc"].flatMap((k) => [`${k}:${ERASED}`, `${k}:erase-me`]);
    for (const q of [ERASED, ERASED.toUpperCase(), "erase-me", "example.com", `"${ERASED}"`, ...terms]) {
      const found = await searchMessages(project.id, messageListQuery.parse({ q }));
      expect(found.data.filter((m) => JSON.stringify(m).toLowerCase().includes(ERASED))).toEqual([]);
    }
    expect((await searchMessages(project.id, messageListQuery.parse({ q: ERASED }))).data).toEqual([]);
  });
});
