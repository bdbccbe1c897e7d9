import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, withDbLock } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { batchChunks, batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { messageRereads } from "@/lib/server/db/schema/event-stream";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { recordEvent } from "@/lib/server/message-index/record-event";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { searchMessages } from "@/lib/server/messages/search";
import { registerProject } from "@/lib/server/projects";
import { refreshInsight } from "@/lib/server/insight/refresh";
import { enqueueRereads } from "@/lib/server/message-index/reread-queue";
import { setTestEnv } from "@/lib/server/test-helpers";
import { linkPeopleRollup } from "@/lib/test/link-people";
import type { Project } from "@/lib/server/gate/access";
import { parseReport } from "@/lib/server/dmarc/parse";
import { storeReport } from "@/lib/server/dmarc/store";
import { dmarcJobs, dmarcRecords, dmarcReports } from "@/lib/server/db/schema/dmarc";
import { googleReport, SAMPLE_ROWS } from "@/lib/test/dmarc-samples";
import { RETENTION_LOCK, runRetentionPass, startRetention, stopRetention } from "./background";
import { pruneOnce } from "./prune";

/** Retention against a real database: what goes, what stays, and that it never holds the database between batches. */
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
let dispose: () => Promise<void>;
let a: Project;
let b: Project;

beforeAll(async () => {
  setTestEnv({ INDEX_RETENTION_DAYS: "90", RETENTION_BATCH_SIZE: "3", RETENTION_PAUSE_MS: "0" });
  ({ dispose } = await useTestDb());
  a = await registerProject({ externalId: "a", name: "A" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  b = await registerProject({ externalId: "b", name: "B" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
});
afterAll(async () => {
  await stopRetention();
  await dispose();
});

let seq = 0;
/** Messages of a project created `days` ago, each with a stream event and a queued re-read. */
async function seed(project: Project, count: number, days: number, extra: { scheduledAt?: string } = {}): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `msg_${++seq}`);
  await recordSentMessages(
    ids.map((id, i) => ({
      projectId: project.id,
      messageId: id,
      request: { from: { email: "news@acme.test" }, to: [{ email: `r${seq}-${i}@example.com` }], subject: "Hi", text: "Hello", ...extra },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard" as const,
      createdAt: ago(days),
    })),
  );
  const d = await db();
  await d.insert(indexedEvents).values(ids.map((id) => ({ messageId: id, projectId: project.id, type: "delivery", occurredAt: ago(days), webhookId: `wh-${id}` })));
  await enqueueRereads(d, project.id, ids, "reconcile");
  return ids;
}

async function countsOf(ids: string[]) {
  const d = await db();
  const n = async (q: Promise<unknown[]>) => (await q).length;
  return {
    messages: await n(d.select().from(indexedMessages).where(inArray(indexedMessages.id, ids))),
    recipients: await n(d.select().from(indexedRecipients).where(inArray(indexedRecipients.messageId, ids))),
    events: await n(d.select().from(indexedEvents).where(inArray(indexedEvents.messageId, ids))),
    rereads: await n(d.select().from(messageRereads).where(inArray(messageRereads.messageId, ids))),
  };
}

async function seedJob(id: string, rows: number, status: "running" | "done", finishedDaysAgo: number | null) {
  const d = await db();
  await d.insert(batchJobs).values({ id, projectId: a.id, projectExternalId: a.externalId, kind: "send", status, totalRows: rows, createdByEmail: "m@example.com", finishedAt: finishedDaysAgo === null ? null : ago(finishedDaysAgo) });
  await d.insert(batchRows).values(Array.from({ length: rows }, (_, i) => ({ jobId: id, row: i + 2, email: `row${i}@example.com`, status: "sent" })));
  await d.insert(batchChunks).values({ jobId: id, round: 0, idx: 0, idempotencyKey: `k-${id}`, rows: [2], status: status === "done" ? "done" : "pending" });
}

beforeEach(async () => {
  const d = await db();
  await d.execute(sql`delete from indexed_messages`);
  await d.execute(sql`delete from indexed_events`);
  await d.execute(sql`delete from message_rereads`);
  await d.execute(sql`delete from batch_jobs`);
});

describe("pruneOnce", () => {
  it("prunes DMARC reports that arrived before the cutoff, their records in slices, and their finished jobs", async () => {
    const d = await db();
    const report = async (project: Project, id: string, daysAgo: number) => {
      expect(await storeReport(d, project.id, `m-${id}`, await parseReport(googleReport("example.com", SAMPLE_ROWS, id).xml))).toEqual({ outcome: "stored" });
      await d.update(dmarcReports).set({ receivedAt: ago(daysAgo) }).where(eq(dmarcReports.reportId, id));
      await d.insert(dmarcJobs).values({ projectId: project.id, messageId: `m-${id}`, outcome: "stored", createdAt: ago(daysAgo), dueAt: ago(daysAgo) });
    };
    await report(a, "old-a", 120);
    await report(b, "old-b", 95);
    await report(a, "new-a", 10);
    // Queued long ago but not done yet: stays for the job.
    await d.insert(dmarcJobs).values({ projectId: a.id, messageId: "m-waiting", createdAt: ago(120), dueAt: ago(120) });

    const batches: string[] = [];
    const r = await pruneOnce({ cutoff: ago(90), batchSize: 4, pauseMs: 0, onBatch: (what, n) => void batches.push(`${what}:${n}`) });
    expect(r).toMatchObject({ dmarcReports: 2, dmarcRecords: 6, dmarcJobs: 2 });
    expect(batches.filter((x) => x.startsWith("dmarc"))).toEqual(["dmarc_records:4", "dmarc_records:2", "dmarc_reports:2", "dmarc_jobs:2"]);
    expect((await d.select({ id: dmarcReports.reportId }).from(dmarcReports)).map((x) => x.id)).toEqual(["new-a"]);
    expect(await d.select().from(dmarcRecords)).toHaveLength(SAMPLE_ROWS.length);
    expect((await d.select({ id: dmarcJobs.messageId }).from(dmarcJobs)).map((x) => x.id).sort()).toEqual(["m-new-a", "m-waiting"]);
  });

  it("removes old messages with their addresses, events and re-reads, in small batches, and keeps the rest", async () => {
    const oldA = await seed(a, 7, 120);
    const oldB = await seed(b, 2, 91);
    const recent = await seed(a, 3, 10);
    // Created long ago but still waiting to go out: kept.
    const scheduled = await seed(a, 1, 120, { scheduledAt: new Date(Date.now() + DAY).toISOString() });
    await seedJob("oldjob", 7, "done", 100);
    await seedJob("newjob", 2, "done", 5);
    await seedJob("stuck", 2, "running", null);

    const batches: string[] = [];
    const r = await pruneOnce({ cutoff: ago(90), batchSize: 3, pauseMs: 0, onBatch: (what, n) => void batches.push(`${what}:${n}`) });
    expect(r).toMatchObject({ messages: 9, batchJobs: 1, batchRows: 7 });
    // 7 old messages of project a in batches of at most 3, then project b's 2; the old job's 7 rows likewise.
    expect(batches).toEqual(["messages:3", "messages:3", "messages:1", "messages:2", "batch_rows:3", "batch_rows:3", "batch_rows:1"]);
    expect(await countsOf([...oldA, ...oldB])).toEqual({ messages: 0, recipients: 0, events: 0, rereads: 0 });
    expect(await countsOf([...recent, ...scheduled])).toEqual({ messages: 4, recipients: 8, events: 4, rereads: 4 });
    const d = await db();
    expect((await d.select({ id: batchJobs.id }).from(batchJobs)).map((j) => j.id).sort()).toEqual(["newjob", "stuck"]);
    expect(await d.select().from(batchChunks).where(eq(batchChunks.jobId, "oldjob"))).toHaveLength(0);
  });

  it("takes pruned messages out of insight's rollups, and old link clickers out of its list", async () => {
    const d = await db();
    for (const t of ["insight_dirty", "insight_facts", "insight_hourly", "insight_link_recipients"]) await d.execute(sql.raw(`delete from ${t}`));
    const old = await seed(a, 4, 120);
    const recent = await seed(a, 2, 10);
    await d.execute(sql`insert into insight_link_recipients (project_id, link, recipient, last_at) values
      (${a.id}, 'https://acme.test/old', 'old@example.com', ${ago(100).toISOString()}::timestamptz),
      (${a.id}, 'https://acme.test/old', 'older@example.com', ${ago(101).toISOString()}::timestamptz),
      (${a.id}, 'https://acme.test/new', 'new@example.com', ${ago(5).toISOString()}::timestamptz)`);
    // Their people rollup, as the refresher would have kept it.
    await d.execute(sql`delete from insight_link_people_hourly`);
    await d.execute(sql`insert into insight_link_people_hourly (project_id, link, hour, people)
      select project_id, link, date_trunc('hour', last_at at time zone 'UTC') at time zone 'UTC', count(*) from insight_link_recipients group by 1, 2, 3`);
    const totals = async () => {
      await refreshInsight();
      const [row] = rowsOf<{ sent: number; delivered: number }>(
        await d.execute(sql`select coalesce(sum(sent), 0)::int as sent, coalesce(sum(delivered), 0)::int as delivered from insight_hourly where project_id = ${a.id}`),
      );
      const facts = rowsOf<{ message_id: string }>(await d.execute(sql`select message_id from insight_facts where project_id = ${a.id} order by message_id`));
      return { ...row, facts: facts.map((f) => f.message_id) };
    };
    expect(await totals()).toEqual({ sent: 6, delivered: 0, facts: [...old, ...recent].sort() });

    const r = await pruneOnce({ cutoff: ago(90), batchSize: 3, pauseMs: 0 });
    expect(r).toMatchObject({ messages: 4, linkClickers: 2 });
    const people = await linkPeopleRollup(d);
    expect(people.rollup).toEqual(people.recount);
    expect(Object.values(people.rollup)).toEqual([1]);
    // Every pruned message is marked for the refresher, in the transaction that removed it.
    expect(rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from insight_dirty where message_id in (select jsonb_array_elements_text(${JSON.stringify(old)}::jsonb))`))[0].n).toBe(4);
    expect(await totals()).toEqual({ sent: 2, delivered: 0, facts: [...recent].sort() });
    expect(rowsOf(await d.execute(sql`select recipient from insight_link_recipients where project_id = ${a.id}`))).toEqual([{ recipient: "new@example.com" }]);
  });

  it("holds no transaction between batches: searches and the ingest run in the gaps", async () => {
    await seed(a, 6, 120);
    const keep = await seed(a, 1, 1);
    const seen: number[] = [];
    await pruneOnce({
      cutoff: ago(90),
      batchSize: 2,
      pauseMs: 0,
      onBatch: async () => {
        // On PGlite an open transaction would make these wait for ever; on Postgres they would block on its locks.
        const page = await searchMessages(a.id, { limit: 50 });
        seen.push(page.data.length);
        await recordEvent(a.id, `gap-${seen.length}`, { messageId: keep[0], type: "delivery", occurredAt: new Date(), details: {}, direction: "outbound", from: null, to: null, subject: null, html: null, text: null }, 60_000);
      },
    });
    expect(seen).toEqual([5, 3, 1]);
    expect(await (await db()).select().from(indexedEvents).where(and(eq(indexedEvents.messageId, keep[0]), eq(indexedEvents.origin, "stream")))).toHaveLength(4);
  });

  it("stops between two batches when asked", async () => {
    const old = await seed(a, 5, 120);
    const abort = new AbortController();
    const r = await pruneOnce({ cutoff: ago(90), batchSize: 2, pauseMs: 0, signal: abort.signal, onBatch: () => abort.abort() });
    expect(r.messages).toBe(2);
    expect((await countsOf(old)).messages).toBe(3);
  });
});

describe("the pruner in the background", () => {
  it("is one per database: a pass finds another instance's lock taken and skips its round", async () => {
    const old = await seed(a, 2, 120);
    const held = await withDbLock(RETENTION_LOCK, () => runRetentionPass());
    expect(held).toEqual({ acquired: true, value: null });
    expect((await countsOf(old)).messages).toBe(2);
    expect(await runRetentionPass()).toMatchObject({ messages: 2 });
  });

  it("keeps everything with INDEX_RETENTION_DAYS=0", async () => {
    setTestEnv({ INDEX_RETENTION_DAYS: "0" });
    try {
      const old = await seed(a, 1, 4000);
      expect(await runRetentionPass()).toBeNull();
      expect((await countsOf(old)).messages).toBe(1);
    } finally {
      setTestEnv({ INDEX_RETENTION_DAYS: "90", RETENTION_BATCH_SIZE: "3", RETENTION_PAUSE_MS: "0" });
    }
  });

  it("prunes on its own once started, and a stop ends a pass in its pause between batches", async () => {
    // One message per batch and a minute between batches: only a stop that interrupts the pause returns in time.
    setTestEnv({ INDEX_RETENTION_DAYS: "90", RETENTION_BATCH_SIZE: "1", RETENTION_PAUSE_MS: "60000" });
    try {
      const old = await seed(a, 3, 120);
      startRetention({ firstPassMs: 0, everyMs: 60_000 });
      for (let i = 0; (await countsOf(old)).messages === 3; i++) {
        if (i > 200) throw new Error("the pruner did not start");
        await new Promise((r) => setTimeout(r, 50));
      }
      await stopRetention();
      expect((await countsOf(old)).messages).toBe(2);
    } finally {
      setTestEnv({ INDEX_RETENTION_DAYS: "90", RETENTION_BATCH_SIZE: "3", RETENTION_PAUSE_MS: "0" });
    }
  });
});
