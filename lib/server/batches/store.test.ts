import { count, eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { batchChunks, batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { users } from "@/lib/server/db/schema/core";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { checkFileInSlices, type CheckedRow } from "./check";
import { createSendJob, getJob, listJobs } from "./jobs";
import { runJob, settleRunningJobs } from "./runner";
import { STORE_ROWS } from "./store";
import { sweepJobs } from "./sweeper";

/**
 * A file is checked and stored in bounded pieces: slices of rows handed on as the file is
 * read, transactions of STORE_ROWS rows, and a job that only becomes visible and sendable
 * once every row is in. Failures part-way leave nothing behind. Against the bundled service.
 */
let real: DashboardOnReal["real"];
let close: () => Promise<void>;
let project: Project;
const actor: Actor = { id: "u-store", email: "mia@example.com", name: "Mia", role: "marketer", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s-store" };
const mapping = { email: "email", name: "name", variables: {} };
const content = { from: { email: "news@acme.test" }, subject: "Hello", text: "Hi" };
const file = (rows: number, tag: string) => ["email,name", ...Array.from({ length: rows }, (_, i) => `${tag}${i}@example.com,Row ${i}`)].join("\n");

beforeAll(async () => {
  ({ real, alpha: project, close } = await startDashboardOnReal());
  await (await db()).insert(users).values({ id: actor.id, email: actor.email, role: "marketer" });
});
afterAll(() => close());

async function jobsAndRows() {
  const d = await db();
  const [jobs] = await d.select({ n: count() }).from(batchJobs);
  const [rows] = await d.select({ n: count() }).from(batchRows);
  const [chunks] = await d.select({ n: count() }).from(batchChunks);
  return { jobs: jobs.n, rows: rows.n, chunks: chunks.n };
}

describe("checking a file", () => {
  it("hands the rows on slice by slice, never the whole file at once, and counts every row", async () => {
    const rows = 20_000;
    const slices: number[] = [];
    const seen: number[] = [];
    const summary = await checkFileInSlices("alpha", `${file(rows, "s")}\ns7@example.com,Again`, mapping, null, (slice: CheckedRow[]) => {
      slices.push(slice.length);
      for (const r of slice) seen.push(r.row);
    });
    expect(summary).toEqual({ total: rows + 1, toSend: rows, invalid: 0, suppressed: 0, duplicate: 1 });
    expect(seen).toEqual(Array.from({ length: rows + 1 }, (_, i) => i + 2));
    expect(slices.length).toBeGreaterThan(5);
    expect(Math.max(...slices)).toBeLessThan(rows / 5);
  });
});

describe("storing a job", () => {
  it(`stores a large file in transactions of ${STORE_ROWS.toLocaleString("en")} rows, with the same chunks as the file's order gives`, async () => {
    const rows = 12_345;
    const d = await db();
    const transactions = vi.spyOn(d, "transaction");
    onTestFinished(() => transactions.mockRestore());
    const { id } = await createSendJob(project, actor, { csv: file(rows, "big"), fileName: "big.csv", mapping, content, confirmCount: rows }, { start: false });
    onTestFinished(() => d.delete(batchJobs).where(eq(batchJobs.id, id)).then(() => {}));
    // Six full pieces and the rest (other transactions meanwhile, an audit entry's, are not the file's).
    expect(transactions.mock.calls.filter(([fn]) => fn.name === "storeRows")).toHaveLength(Math.ceil(rows / STORE_ROWS));
    const chunks = await d.select({ idx: batchChunks.idx, rows: batchChunks.rows, key: batchChunks.idempotencyKey }).from(batchChunks).where(eq(batchChunks.jobId, id)).orderBy(batchChunks.idx);
    expect(chunks).toHaveLength(124);
    expect(chunks.flatMap((c) => c.rows)).toEqual(Array.from({ length: rows }, (_, i) => i + 2));
    expect(chunks.every((c, i) => c.idx === i && c.key === `batch-${id}-chunk-${i}` && c.rows.length === (i < 123 ? 100 : 45))).toBe(true);
    expect(await getJob(project, id)).toMatchObject({ status: "running", totalRows: rows, counts: { pending: rows } });
    // The planner knows the job is large before its first chunk is claimed: without statistics
    // it read every pending row of the job to find each chunk's hundred.
    const stats = rowsOf<{ vals: string | null }>(await d.execute(sql`select most_common_vals::text as vals from pg_stats where tablename = 'batch_rows' and attname = 'job_id'`));
    expect(stats.some((s) => s.vals?.includes(id))).toBe(true);
  });

  it("is neither listed, opened nor sent while its file is still being stored", async () => {
    const d = await db();
    const original = d.transaction.bind(d);
    let seenWhileStoring: { listed: boolean; opened: boolean } | null = null;
    const transactions = vi.spyOn(d, "transaction").mockImplementation(async (fn, config) => {
      const out = await original(fn, config);
      if (!seenWhileStoring) {
        const [preparing] = await d.select({ id: batchJobs.id, status: batchJobs.status }).from(batchJobs).where(eq(batchJobs.status, "preparing"));
        expect(preparing).toBeDefined();
        // Asking to run it now sends nothing: it is not a running job yet.
        await runJob(preparing.id);
        expect(await d.select({ n: count() }).from(batchChunks).where(eq(batchChunks.status, "claimed"))).toEqual([{ n: 0 }]);
        seenWhileStoring = {
          listed: (await listJobs(project, "send")).some((j) => j.id === preparing.id),
          opened: await getJob(project, preparing.id).then(() => true, () => false),
        };
      }
      return out;
    });
    onTestFinished(() => transactions.mockRestore());
    const { id } = await createSendJob(project, actor, { csv: file(5_000, "vis"), mapping, content, confirmCount: 5_000 }, { start: false });
    onTestFinished(() => d.delete(batchJobs).where(eq(batchJobs.id, id)).then(() => {}));
    expect(seenWhileStoring).toEqual({ listed: false, opened: false });
    expect((await listJobs(project, "send")).map((j) => j.id)).toContain(id);
  });

  it("leaves nothing behind when the confirmed count no longer holds after the rows were stored", async () => {
    const before = await jobsAndRows();
    await expect(createSendJob(project, actor, { csv: file(5_000, "cc"), mapping, content, confirmCount: 4_999 })).rejects.toMatchObject({ status: 409, code: "count_changed" });
    expect(await jobsAndRows()).toEqual(before);
  });

  it("leaves nothing behind when storing fails part-way, and the same file can be started again", async () => {
    const before = await jobsAndRows();
    const d = await db();
    const original = d.transaction.bind(d);
    let calls = 0;
    const transactions = vi.spyOn(d, "transaction").mockImplementation(async (fn, config) => {
      if (++calls === 3) throw new Error("the database went away");
      return original(fn, config);
    });
    await expect(createSendJob(project, actor, { csv: file(9_000, "fail"), mapping, content, confirmCount: 9_000 }, { start: false })).rejects.toThrow("the database went away");
    transactions.mockRestore();
    expect(calls).toBe(3);
    expect(await jobsAndRows()).toEqual(before);
    const { id } = await createSendJob(project, actor, { csv: file(9_000, "fail"), mapping, content, confirmCount: 9_000 }, { start: false });
    onTestFinished(() => d.delete(batchJobs).where(eq(batchJobs.id, id)).then(() => {}));
    expect((await getJob(project, id)).counts.pending).toBe(9_000);
  });

  it("stops storing a file whose job was deleted meanwhile, and leaves none of its rows", async () => {
    // Opening a job above resumed it: its last transactions must not be counted here.
    await settleRunningJobs();
    const before = await jobsAndRows();
    const d = await db();
    const original = d.transaction.bind(d);
    let calls = 0;
    // The sweeper (or anyone) deletes the preparing job between two pieces of the file.
    const transactions = vi.spyOn(d, "transaction").mockImplementation(async (fn, config) => {
      if (++calls === 2) await d.delete(batchJobs).where(eq(batchJobs.status, "preparing"));
      return original(fn, config);
    });
    onTestFinished(() => transactions.mockRestore());
    await expect(createSendJob(project, actor, { csv: file(5_000, "gone"), mapping, content, confirmCount: 5_000 }, { start: false })).rejects.toThrow("was removed while its file was stored");
    expect(calls).toBe(2);
    expect(await jobsAndRows()).toEqual(before);
  });

  it("a job whose instance died while storing it is deleted by the sweeper once abandoned, and only then", async () => {
    const d = await db();
    const job = { projectId: project.id, projectExternalId: "alpha", kind: "send" as const, status: "preparing" as const, totalRows: 0, createdByEmail: actor.email };
    await d.insert(batchJobs).values([
      { ...job, id: "died-storing", updatedAt: new Date(Date.now() - 11 * 60_000) },
      { ...job, id: "still-storing", updatedAt: new Date() },
    ]);
    await d.insert(batchRows).values([
      { jobId: "died-storing", row: 2, email: "a@example.com", status: "pending" },
      { jobId: "still-storing", row: 2, email: "b@example.com", status: "pending" },
    ]);
    await d.insert(batchChunks).values({ jobId: "died-storing", round: 0, idx: 0, idempotencyKey: "batch-died-storing-chunk-0", rows: [2] });
    onTestFinished(() => d.delete(batchJobs).where(eq(batchJobs.id, "still-storing")).then(() => {}));
    // Neither is taken up to be sent.
    expect(await sweepJobs()).toEqual([]);
    expect((await d.select({ id: batchJobs.id }).from(batchJobs).where(eq(batchJobs.status, "preparing"))).map((j) => j.id)).toEqual(["still-storing"]);
    expect(await d.select().from(batchRows).where(eq(batchRows.jobId, "died-storing"))).toEqual([]);
    expect(await d.select().from(batchChunks).where(eq(batchChunks.jobId, "died-storing"))).toEqual([]);
  });
});
