import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
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
const near = (at: number | null, ms: number) => {
  expect(at).not.toBeNull();
  expect(Math.abs(at! - (Date.now() + ms))).toBeLessThan(5_000);
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
    expect(await nextRereadDue(d)).toBeLessThanOrEqual(Date.now());
  });

  it("counts a claimed read from the end of its lease, and a paused project's from the end of its pause", async () => {
    const d = await db();
    await d.execute(sql`delete from message_rereads`);
    await d.execute(sql`insert into message_rereads (project_id, message_id, reason, due_at) values (${projectId}, 'm-claimed', 'event', now() - interval '1 second')`);
    expect((await claimRereads(d, projectId, 10, "probe-test", 120_000)).map((r) => r.messageId)).toEqual(["m-claimed"]);
    near(await nextRereadDue(d), 120_000);
    await d.execute(sql`update message_rereads set claimed_by = null, lease_until = null`);
    expect(await nextRereadDue(d)).toBeLessThanOrEqual(Date.now());
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
    expect(await nextDmarcJobDue(d)).toBeLessThanOrEqual(Date.now());
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
