import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { and, eq } from "drizzle-orm";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { projects, users } from "@/lib/server/db/schema/core";
import { batchChunks, batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { json, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import type { Actor, Project } from "@/lib/server/gate/access";
import { createSendJob, getJob, jobResultsCsv, jobRows, retryFailed, checkBatch } from "./jobs";
import { claimChunk, runJob, settleRunningJobs } from "./runner";
import { MAX_ATTEMPTS as SERVICE_ATTEMPTS } from "@/lib/server/service/client";
import { startBatchSweeper, stopBatchSweeper, sweepJobs } from "./sweeper";

/**
 * The batch job against a fake service that keeps Idempotency-Keys the way the interface
 * says (same key → the stored answer, nothing sent again) and can fail on purpose.
 *
 * `loseFirstAnswer`: each chunk's first request is done and its answer lost (503), and the
 * chunk's next `outageAfterLoss` requests fail before anything is done. The faults follow
 * the chunk (known by its first recipient), not the order in which concurrent workers'
 * requests arrive, so a test's outcome does not depend on timing.
 */
type Fake = {
  sent: Map<string, string>;
  keys: Map<string, unknown>;
  batchCalls: { key: string; size: number; first: string }[];
  loseFirstAnswer: boolean;
  outageAfterLoss: number;
  refuse: Set<string>;
  beforeAnswer: ((key: string) => Promise<void>) | null;
};
const fake: Fake = { sent: new Map(), keys: new Map(), batchCalls: [], loseFirstAnswer: false, outageAfterLoss: 0, refuse: new Set(), beforeAnswer: null };
let server: TestServer;
let dispose: () => Promise<void>;
let seq = 0;
const project: Project = { id: "p-1", externalId: "acme", name: "Acme", createdAt: new Date().toISOString() };
const actor: Actor = { id: "u-1", email: "mia@example.com", name: "Mia", role: "marketer", active: true, allProjects: true, projectIds: [], sessionId: "s-1", authAt: null };

beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/suppressions") {
      // Two pages, so the check must follow the cursor.
      if (!url.searchParams.get("cursor")) return json(res, 200, { data: [{ email: "Sup1@example.com", reason: "bounce", createdAt: "2026-01-01T00:00:00Z" }], nextCursor: "c2" });
      return json(res, 200, { data: [{ email: "sup2@example.com", reason: "complaint", createdAt: "2026-01-01T00:00:00Z" }], nextCursor: null });
    }
    if (url.pathname === "/v1/emails/batch") {
      const key = String(req.headers["idempotency-key"]);
      const body = JSON.parse(req.body) as { emails: { to: { email: string }[] }[] };
      const first = body.emails[0]?.to[0]?.email ?? "";
      // How many times this chunk was asked before (this request not counted).
      const before = fake.batchCalls.filter((c) => c.first === first).length;
      fake.batchCalls.push({ key, size: body.emails.length, first });
      await fake.beforeAnswer?.(key);
      if (fake.loseFirstAnswer && before >= 1 && before <= fake.outageAfterLoss) return json(res, 503, { error: { message: "fault", code: "fault_injected" } });
      const stored = fake.keys.get(key);
      if (stored) return json(res, 207, stored);
      const answer = {
        data: body.emails.map((e, i) => {
          const email = e.to[0].email;
          if (fake.refuse.has(email)) return { error: { message: `emails.${i}.to.0.email: refused`, code: "validation_error", param: `emails.${i}.to.0.email` } };
          const id = `msg_${++seq}`;
          fake.sent.set(id, email);
          return { id, status: "queued" };
        }),
      };
      fake.keys.set(key, answer);
      // The service did the work, then the answer was lost: the client must retry with the same key.
      if (fake.loseFirstAnswer && before === 0) return json(res, 503, { error: { message: "lost", code: "bad_gateway" } });
      return json(res, 207, answer);
    }
    json(res, 404, { error: { message: "not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: server.url, SERVICE_TIMEOUT_MS: "5000" });
  ({ dispose } = await useTestDb());
  const d = await db();
  await d.insert(projects).values({ id: project.id, externalId: project.externalId, name: project.name });
  await d.insert(users).values({ id: actor.id, email: actor.email, role: "marketer" });
});
afterAll(async () => {
  await stopBatchSweeper();
  await settleRunningJobs();
  await dispose();
  await server.close();
});
beforeEach(() => {
  fake.sent.clear();
  fake.keys.clear();
  fake.batchCalls = [];
  fake.loseFirstAnswer = false;
  fake.outageAfterLoss = 0;
  fake.refuse.clear();
  fake.beforeAnswer = null;
});

/** 250 rows: 3 malformed addresses, 2 suppressed ones. */
function csv250(tag: string) {
  const lines = ["email,first_name"];
  for (let i = 1; i <= 250; i++) {
    let email = `r${i}-${tag}@example.com`;
    if (i === 10 || i === 100 || i === 200) email = `broken-${i}-at-example.com`;
    if (i === 50) email = "sup1@example.com";
    if (i === 150) email = "SUP2@example.com";
    lines.push(`${email},Name ${i}`);
  }
  return lines.join("\n");
}
const body = (csv: string) => ({
  csv,
  fileName: "list.csv",
  mapping: { email: "email", firstName: "first_name", variables: {} },
  content: { from: { email: "news@acme.test" }, subject: "Hello", text: "Hi there" },
});
const sendJob = (csv: string, confirmCount: number) => ({ ...body(csv), confirmCount });

describe("checkBatch", () => {
  it("marks malformed and suppressed rows (suppressions read page by page) before anything is sent", async () => {
    const { summary, problems } = await checkBatch(project, actor, body(csv250("c")));
    expect(summary).toMatchObject({ total: 250, toSend: 245, invalid: 3, suppressed: 2 });
    expect(problems.map((p) => [p.row, p.status])).toEqual([[11, "invalid"], [51, "suppressed"], [101, "invalid"], [151, "suppressed"], [201, "invalid"]]);
    expect(problems[0].error?.field).toBe("email");
    expect(fake.batchCalls).toHaveLength(0);
  });

  it("refuses content the wire schema refuses, naming the field", async () => {
    await expect(checkBatch(project, actor, { ...body(csv250("x")), content: { from: { email: "news@acme.test" } } })).rejects.toMatchObject({ param: "content.subject" });
  });
});

describe("a send job", () => {
  it("sends the valid rows in chunks of 100 with keys derived from the job and chunk", async () => {
    await expect(createSendJob(project, actor, sendJob(csv250("a"), 200))).rejects.toMatchObject({ code: "count_changed" });
    const { id } = await createSendJob(project, actor, sendJob(csv250("a"), 245));
    await runJob(id);
    const job = await getJob(project, id);
    expect(job.status).toBe("done");
    expect(job.counts).toMatchObject({ sent: 245, invalid: 3, suppressed: 2, pending: 0, failed: 0 });
    expect(fake.batchCalls.map((c) => c.key).sort()).toEqual([`batch-${id}-chunk-0`, `batch-${id}-chunk-1`, `batch-${id}-chunk-2`]);
    expect(fake.batchCalls.map((c) => c.size).sort()).toEqual([100, 100, 45]);
    expect(fake.sent.size).toBe(245);
    const d = await db();
    expect(await d.select().from(indexedMessages).where(eq(indexedMessages.batchJobId, id))).toHaveLength(245);
    const bytes = new Uint8Array(await new Response((await jobResultsCsv(project, id)).csv).arrayBuffer());
    // A byte-order mark first, so spreadsheets read the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    expect(lines.filter(Boolean)).toHaveLength(251);
    expect(lines[0]).toBe("row,email,name,status,message_id,error_field,error_code,error");
    expect(lines.at(-1)).toBe("");
  });

  it("sends nothing twice when the service fails, even after accepting a chunk", async () => {
    // Every chunk is done at its first request and the answer lost; the service then fails the
    // rest of that call's attempts. So each chunk is asked again by the client's own retry and
    // again by the runner's next claim of it: a key that changed at either would send it twice.
    fake.loseFirstAnswer = true;
    fake.outageAfterLoss = SERVICE_ATTEMPTS - 1;
    // Room for every attempt however slow the machine: a call that ran into the client's
    // deadline would stop retrying early, and the count of requests below would depend on timing.
    setTestEnv({ SERVICE_URL: server.url, SERVICE_TIMEOUT_MS: "60000" });
    onTestFinished(() => setTestEnv({ SERVICE_URL: server.url, SERVICE_TIMEOUT_MS: "5000" }));
    const { id } = await createSendJob(project, actor, sendJob(csv250("b"), 245));
    await runJob(id);
    expect((await getJob(project, id)).counts.sent).toBe(245);
    expect(fake.sent.size).toBe(245);
    expect(new Set(fake.sent.values()).size).toBe(245);
    // Both kinds of retry happened for each of the three chunks, each always with its one key.
    const chunks = [...new Set(fake.batchCalls.map((c) => c.first))];
    expect(chunks).toHaveLength(3);
    for (const first of chunks) {
      const calls = fake.batchCalls.filter((c) => c.first === first);
      expect(calls.length, `requests for the chunk starting at ${first}`).toBe(SERVICE_ATTEMPTS + 1);
      expect(new Set(calls.map((c) => c.key)).size, `keys of the chunk starting at ${first}`).toBe(1);
    }
  });

  it("resumes chunks whose claim expired, leaves live claims alone, and shares chunks between instances", async () => {
    const { id } = await createSendJob(project, actor, sendJob(csv250("r"), 245), { start: false });
    const d = await db();
    // Instance A died holding chunk 0 (lease already over); instance B is alive with chunk 1.
    const a = await claimChunk(d, id, "instance-a", 60_000);
    const b = await claimChunk(d, id, "instance-b", 60_000);
    // A live claim is skipped: each instance gets its own chunk.
    expect([a?.idx, b?.idx]).toEqual([0, 1]);
    await d.update(batchChunks).set({ leaseUntil: new Date(Date.now() - 1) }).where(and(eq(batchChunks.jobId, id), eq(batchChunks.idx, 0)));
    await runJob(id);
    let job = await getJob(project, id);
    expect(job.status).toBe("running");
    expect(job.counts.sent).toBe(145);
    // B's lease runs out without it finishing: the next visit resumes chunk 1 with its original key.
    await d.update(batchChunks).set({ leaseUntil: new Date(Date.now() - 1) }).where(and(eq(batchChunks.jobId, id), eq(batchChunks.idx, 1)));
    await getJob(project, id);
    await runJob(id);
    job = await getJob(project, id);
    expect(job).toMatchObject({ status: "done", counts: { sent: 245 } });
    expect(fake.sent.size).toBe(245);
    expect(fake.batchCalls.filter((c) => c.key === `batch-${id}-chunk-1`)).toHaveLength(1);
  });

  it("retries failed rows only, with new keys, and records the error's field per row", async () => {
    fake.refuse.add("r5-f@example.com");
    const { id } = await createSendJob(project, actor, sendJob(csv250("f"), 245));
    await runJob(id);
    const failed = await jobRows(project, id, { statuses: ["failed"] });
    expect(failed.data).toEqual([expect.objectContaining({ row: 6, status: "failed", error: expect.objectContaining({ field: "to.0.email" }) })]);
    fake.refuse.clear();
    expect(await retryFailed(project, actor, id)).toEqual({ retried: 1 });
    await runJob(id);
    expect((await getJob(project, id)).counts).toMatchObject({ sent: 245, failed: 0 });
    expect(fake.batchCalls.at(-1)?.key).toMatch(new RegExp(`^batch-${id}-retry-1-rows-`));
    expect(fake.sent.size).toBe(245);
  });

  it("claims and reads the next chunk while one is at the service, so the service never waits for the dashboard's writes", async () => {
    // The client's deadline far beyond the wait below: an answer held while a busy machine claims the next chunk is not cut off.
    setTestEnv({ SERVICE_URL: server.url, SERVICE_TIMEOUT_MS: "60000", BATCH_WORKERS: "1" });
    onTestFinished(() => setTestEnv({ SERVICE_URL: server.url, SERVICE_TIMEOUT_MS: "5000" }));
    const { id } = await createSendJob(project, actor, sendJob(csv250("p"), 245), { start: false });
    const d = await db();
    // Whether the chunk after each one was claimed while that one was at the service: its answer
    // is held back until then (the last chunk has none after it). The bound only ends a wait that
    // would never end, the runner claiming nothing while a chunk is out; the write of the one
    // before may still be under way.
    const nextClaimed: Record<string, boolean> = {};
    fake.beforeAnswer = async (key) => {
      const next = Number(key.split("-chunk-")[1]) + 1;
      const started = Date.now();
      for (;;) {
        const [chunk] = await d.select({ status: batchChunks.status }).from(batchChunks).where(and(eq(batchChunks.jobId, id), eq(batchChunks.idx, next)));
        nextClaimed[key] = chunk?.status === "claimed";
        if (nextClaimed[key] || !chunk || Date.now() - started > 20_000) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await runJob(id);
    // One worker: chunk 1 was claimed (and its rows read) while chunk 0 was being sent, chunk 2
    // while chunk 1 was; after the last there was nothing left to take.
    expect(nextClaimed).toEqual({ [`batch-${id}-chunk-0`]: true, [`batch-${id}-chunk-1`]: true, [`batch-${id}-chunk-2`]: false });
    expect(await getJob(project, id)).toMatchObject({ status: "done", counts: { sent: 245 } });
    expect(fake.sent.size).toBe(245);
  });
});

describe("a large job", () => {
  it("is stored in file order and its results stream out page by page, header once", async () => {
    const rows = 12_345;
    const csv = ["email,first_name", ...Array.from({ length: rows }, (_, i) => `big${i}@example.com,N${i}`)].join("\n");
    const { id } = await createSendJob(project, actor, sendJob(csv, rows), { start: false });
    const d = await db();
    onTestFinished(() => d.delete(batchJobs).where(eq(batchJobs.id, id)).then(() => {}));
    const chunks = await d.select({ idx: batchChunks.idx, rows: batchChunks.rows }).from(batchChunks).where(eq(batchChunks.jobId, id)).orderBy(batchChunks.idx);
    expect(chunks).toHaveLength(124);
    expect(chunks[0].rows).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    expect(chunks[123].rows).toEqual(Array.from({ length: 45 }, (_, i) => 12_302 + i));
    const text = await new Response((await jobResultsCsv(project, id)).csv).text();
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(rows + 1);
    expect(lines.filter((l) => l.includes("row,email,name"))).toHaveLength(1);
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(Array.from({ length: rows }, (_, i) => i + 2));
    // The first row of the second page.
    expect(lines[5_001]).toBe("5002,big5000@example.com,N5000,pending,,,,");
  });
});

describe("the sweeper", () => {
  it("takes over a job whose instance died, without anyone opening or polling it", async () => {
    const { id } = await createSendJob(project, actor, sendJob(csv250("s"), 245), { start: false });
    const d = await db();
    // The instance that started it sent nothing and died holding chunk 0 (its lease over).
    await claimChunk(d, id, "dead-instance", 60_000);
    await d.update(batchChunks).set({ leaseUntil: new Date(Date.now() - 1) }).where(and(eq(batchChunks.jobId, id), eq(batchChunks.idx, 0)));
    startBatchSweeper(50);
    for (let i = 0; (await d.select({ status: batchJobs.status }).from(batchJobs).where(eq(batchJobs.id, id)))[0].status !== "done"; i++) {
      if (i > 400) throw new Error("the sweeper did not finish the job");
      await new Promise((r) => setTimeout(r, 50));
    }
    await stopBatchSweeper();
    await settleRunningJobs();
    expect((await getJob(project, id)).counts).toMatchObject({ sent: 245, pending: 0 });
    expect(fake.sent.size).toBe(245);
    expect(fake.batchCalls.map((c) => c.key).sort()).toEqual([`batch-${id}-chunk-0`, `batch-${id}-chunk-1`, `batch-${id}-chunk-2`]);
  });

  it("marks done a job whose chunks were all sent by an instance that died before saying so", async () => {
    const { id } = await createSendJob(project, actor, sendJob(csv250("t"), 245), { start: false });
    const d = await db();
    await d.update(batchChunks).set({ status: "done" }).where(eq(batchChunks.jobId, id));
    expect(await sweepJobs()).toEqual([]);
    expect((await d.select({ status: batchJobs.status }).from(batchJobs).where(eq(batchJobs.id, id)))[0].status).toBe("done");
  });

  it("does not send a row whose recipient was erased while the job waited", async () => {
    const { id } = await createSendJob(project, actor, sendJob(csv250("e"), 245), { start: false });
    const d = await db();
    await d.update(batchRows).set({ status: "invalid", errorCode: "erased", email: "erased:0" }).where(and(eq(batchRows.jobId, id), eq(batchRows.row, 3)));
    await runJob(id);
    expect((await getJob(project, id)).counts).toMatchObject({ sent: 244, invalid: 4 });
    expect([...fake.sent.values()]).not.toContain("r2-e@example.com");
    expect(fake.sent.size).toBe(244);
  });
});

describe("file limits", () => {
  it("refuses a file over MAX_FILE_ROWS, naming the csv", async () => {
    const { MAX_FILE_ROWS } = await import("@/lib/schemas/limits");
    const csv = `email\n${Array.from({ length: MAX_FILE_ROWS + 1 }, (_, i) => `u${i}@example.com`).join("\n")}`;
    await expect(checkBatch(project, actor, body(csv))).rejects.toMatchObject({ status: 400, code: "too_many_rows", param: "csv" });
  });

  it("checks one file at a time per user: a second concurrent check gets a 429, another user's does not", async () => {
    const other = { ...actor, id: "u-2" };
    const [first, second, third] = await Promise.allSettled([
      checkBatch(project, actor, body(csv250("l1"))),
      checkBatch(project, actor, body(csv250("l2"))),
      checkBatch(project, other, body(csv250("l3"))),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second).toMatchObject({ status: "rejected", reason: { status: 429, code: "file_check_in_progress" } });
    expect(third.status).toBe("fulfilled");
    // Once the first has finished, the same user may check again.
    expect((await checkBatch(project, actor, body(csv250("l4")))).summary.total).toBe(250);
  });
});
