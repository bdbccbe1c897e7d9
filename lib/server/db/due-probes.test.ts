import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { nextAlertDue, sendDueAlerts } from "@/lib/server/alerts/outbox";
import { openJobsDue } from "@/lib/server/batches/sweeper";
import { claimDmarcJob, nextDmarcJobDue } from "@/lib/server/dmarc/queue";
import { dirtyMarksDue } from "@/lib/server/insight/dirty";
import { nextDomainLookupDue } from "@/lib/server/insight/domains";
import { claimRereads, nextRereadDue } from "@/lib/server/message-index/reread-queue";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";

/**
 * Each background poller's due probe (contract/db/due-gate.ts) must read its claim's condition
 * exactly: a probe that answers "later" while the claim would take something leaves that work
 * waiting for the next write to the database. Each case puts rows in the states the claim
 * tells apart and compares the two.
 */
let dispose: () => Promise<void>;
let projectId: string;

beforeAll(async () => {
  setTestEnv({ SERVICE_URL: "http://127.0.0.1:9", PUBLIC_URL: "http://dash.test:3000" });
  ({ dispose } = await useTestDb());
  projectId = (await registerProject({ externalId: "probes" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false })).id;
});
afterAll(() => dispose());

const inMs = (ms: number) => sql`now() + (${String(ms)}::int * interval '1 millisecond')`;
/** A probe's answer: about `ms` from now, as the database reckons it. */
const near = (inMs: number | null, ms: number) => {
  expect(inMs).not.toBeNull();
  expect(Math.abs(inMs! - ms)).toBeLessThan(5_000);
};

describe("the re-read worker's probe", () => {
  it("answers null on an empty queue, the due time of a read waiting, and now for one due", async () => {
    const d = await db();
    await d.execute(sql`delete from message_rereads`);
    expect(await nextRereadDue(d)).toBeNull();
    await d.execute(sql`insert into message_rereads (project_id, message_id, reason, due_at) values (${projectId}, 'm-later', 'event', ${inMs(60_000)})`);
    near(await nextRereadDue(d), 60_000);
    expect(await claimRereads(d, projectId, 10, "probe-test", 30_000)).toEqual([]);
    await d.execute(sql`insert into message_rereads (project_id, message_id, reason, due_at) values (${projectId}, 'm-now', 'event', now() - interval '1 second')`);
    expect(await nextRereadDue(d)).toBeLessThanOrEqual(0);
  });

  it("counts a claimed read from the end of its lease, and a paused project's from the end of its pause", async () => {
    const d = await db();
    await d.execute(sql`delete from message_rereads`);
    await d.execute(sql`insert into message_rereads (project_id, message_id, reason, due_at) values (${projectId}, 'm-claimed', 'event', now() - interval '1 second')`);
    expect((await claimRereads(d, projectId, 10, "probe-test", 120_000)).map((r) => r.messageId)).toEqual(["m-claimed"]);
    near(await nextRereadDue(d), 120_000);
    await d.execute(sql`update message_rereads set claimed_by = null, lease_until = null`);
    expect(await nextRereadDue(d)).toBeLessThanOrEqual(0);
    await d.execute(sql`insert into reread_pauses (project_id, until, strikes) values (${projectId}, ${inMs(90_000)}, 1)`);
    near(await nextRereadDue(d), 90_000);
    await d.execute(sql`delete from reread_pauses`);
  });
});

describe("the DMARC job's probe", () => {
  it("leaves out finished jobs, counts a claimed one from its lease's end, and agrees with the claim", async () => {
    const d = await db();
    await d.execute(sql`delete from dmarc_jobs`);
    expect(await nextDmarcJobDue(d)).toBeNull();
    await d.execute(sql`insert into dmarc_jobs (project_id, message_id, due_at, outcome) values (${projectId}, 'r-done', now() - interval '1 minute', 'stored')`);
    expect(await nextDmarcJobDue(d)).toBeNull();
    await d.execute(sql`insert into dmarc_jobs (project_id, message_id, due_at) values (${projectId}, 'r-later', ${inMs(60_000)})`);
    near(await nextDmarcJobDue(d), 60_000);
    expect(await claimDmarcJob(d, "probe-test", 60_000)).toBeNull();
    await d.execute(sql`update dmarc_jobs set due_at = now() - interval '1 second' where message_id = 'r-later'`);
    expect(await nextDmarcJobDue(d)).toBeLessThanOrEqual(0);
    expect((await claimDmarcJob(d, "probe-test", 150_000))?.messageId).toBe("r-later");
    near(await nextDmarcJobDue(d), 150_000);
  });
});

describe("the insight probes", () => {
  it("the refresher's: due while any mark waits, null when none does", async () => {
    const d = await db();
    await d.execute(sql`delete from insight_dirty`);
    expect(await dirtyMarksDue(d)).toBeNull();
    await d.execute(sql`insert into insight_dirty (message_id, project_id) values ('m-dirty', ${projectId})`);
    expect(await dirtyMarksDue(d)).toBe(0);
    await d.execute(sql`delete from insight_dirty`);
  });

  it("the mailbox-provider lookups': the earliest expiry", async () => {
    const d = await db();
    await d.execute(sql`delete from insight_domains`);
    expect(await nextDomainLookupDue(d)).toBeNull();
    await d.execute(sql`insert into insight_domains (domain, source, expires_at) values ('later.example', 'mx', ${inMs(60_000)}), ('much-later.example', 'mx', ${inMs(600_000)})`);
    near(await nextDomainLookupDue(d), 60_000);
  });
});

describe("the alert outbox's probe", () => {
  it("leaves out what is sent, counts a pending notification from its next attempt, a claimed one from its lease's end", async () => {
    const d = await db();
    await d.execute(sql`delete from alert_deliveries`);
    await d.execute(sql`delete from alert_events`);
    expect(await nextAlertDue(d)).toBeNull();
    await d.execute(sql`
      insert into alert_events (id, project_id, metric, episode, level, previous_level, kind, "window", windows)
      values ('ae-probe', ${projectId}, 'bounce', 1, 'warning', 'ok', 'raised', '24h', '[]'::jsonb)`);
    const delivery = (id: string, status: string, next: ReturnType<typeof inMs>, claim = sql`null, null`) => sql`
      insert into alert_deliveries (id, alert_event_id, project_id, channel, target, idempotency_key, status, next_attempt_at, claimed_by, lease_until)
      values (${id}, 'ae-probe', ${projectId}, 'webhook', ${`https://hooks.example/${id}`}, ${id}, ${status}, ${next}, ${claim})`;
    await d.execute(delivery("ad-sent", "sent", inMs(-60_000)));
    expect(await nextAlertDue(d)).toBeNull();
    await d.execute(delivery("ad-later", "pending", inMs(60_000)));
    near(await nextAlertDue(d), 60_000);
    // The outbox's own pass takes nothing then: nothing is due.
    expect(await sendDueAlerts({ d, instance: "probe-test" })).toEqual({ sent: 0, failed: 0, retrying: 0, skipped: 0 });
    await d.execute(delivery("ad-claimed", "pending", inMs(-1_000), sql`'someone', ${inMs(30_000)}`));
    near(await nextAlertDue(d), 30_000);
  });
});

describe("the batch sweeper's probe", () => {
  it("due while a job is preparing or running, null once every job is done", async () => {
    const d = await db();
    await d.execute(sql`delete from batch_jobs`);
    expect(await openJobsDue(d)).toBeNull();
    const job = (id: string, status: string) => sql`
      insert into batch_jobs (id, project_id, project_external_id, kind, status, total_rows, created_by_email)
      values (${id}, ${projectId}, 'probes', 'send', ${status}, 1, 'probe@example.com')`;
    await d.execute(job("bj-done", "done"));
    expect(await openJobsDue(d)).toBeNull();
    await d.execute(job("bj-preparing", "preparing"));
    expect(await openJobsDue(d)).toBe(0);
    await d.execute(sql`update batch_jobs set status = 'running' where id = 'bj-preparing'`);
    expect(await openJobsDue(d)).toBe(0);
    await d.execute(sql`delete from batch_jobs`);
  });
});
