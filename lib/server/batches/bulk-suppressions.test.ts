import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { listAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { batchChunks } from "@/lib/server/db/schema/batches";
import { users } from "@/lib/server/db/schema/core";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { checkSuppressionList, createSuppressionJob } from "./bulk-suppressions";
import { getJob, jobRows } from "./jobs";
import { claimChunk, settleRunningJobs } from "./runner";
import { sweepJobs } from "./sweeper";
import { auditQuery } from "@/lib/schemas/audit";

/**
 * Suppressions in bulk against the real bundled service over HTTP: the check (line numbers,
 * repeats folded, bad reasons, addresses already suppressed), the job, and a restart halfway
 * through a chunk — the service ends with exactly the list's addresses, none added twice.
 * Every request the service is sent is counted (the `before` hook of the real service).
 */
let real: DashboardOnReal["real"];
let close: () => Promise<void>;
let alpha: Project;
const requests: { method: string; path: string; email: string | null }[] = [];
const actor: Actor = { id: "u-sup", email: "sam@example.com", name: "Sam", role: "support", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s-sup" };

beforeAll(async () => {
  ({ real, alpha, close } = await startDashboardOnReal({
    service: {
      before: async (req) => {
        const url = new URL(req.url);
        if (!url.pathname.startsWith("/v1/suppressions")) return;
        const email = req.method === "POST" ? String(((await req.json()) as { email: string }).email).toLowerCase() : null;
        requests.push({ method: req.method, path: url.pathname, email });
      },
    },
  }));
  await (await db()).insert(users).values({ id: actor.id, email: actor.email, role: "support" });
  expect((await real.svc.call("POST", "/v1/suppressions", { project: "alpha", body: { email: "blocked@example.com", reason: "bounce" } })).status).toBe(201);
  expect((await real.svc.call("POST", "/v1/suppressions", { project: "beta", body: { email: "beta-only@example.com", reason: "complaint" } })).status).toBe(201);
});
afterAll(async () => {
  await settleRunningJobs();
  await close();
});
beforeEach(() => {
  requests.length = 0;
});

/** The project's suppressions as the service lists them, every page. */
async function serviceList(project = "alpha") {
  const out: { email: string; reason: string }[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await real.svc.call("GET", `/v1/suppressions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { project });
    const page = (await res.json()) as { data: { email: string; reason: string }[]; nextCursor: string | null };
    out.push(...page.data.map(({ email, reason }) => ({ email, reason })));
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error("too many pages");
}

async function untilDone(id: string) {
  for (let i = 0; i < 600; i++) {
    const job = await getJob(alpha, id, "suppressions");
    if (job.status === "done") return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the job did not finish");
}

const PASTED = [
  "ada@example.com", // line 1: added, default reason
  "not-an-email", // line 2: bad
  "ADA@example.com", // line 3: repeats line 1
  "blocked@example.com", // line 4: already suppressed
  "grace@example.com, complaint", // line 5: added as a complaint
  "bob@example.com,nonsense", // line 6: a reason the interface does not have
  "",
  "beta-only@example.com", // line 8: suppressed in beta only: added here
].join("\n");

describe("checking a list", () => {
  it("names bad lines by number, folds repeats, notes addresses already suppressed, and adds nothing", async () => {
    const { summary, problems } = await checkSuppressionList(alpha, actor, { csv: PASTED, reason: "manual" });
    expect(summary).toEqual({ total: 7, toSend: 3, invalid: 2, suppressed: 1, duplicate: 1 });
    expect(problems.map((p) => [p.row, p.status, p.error?.field])).toEqual([
      [2, "invalid", "email"],
      [3, "duplicate", "email"],
      [4, "suppressed", "email"],
      [6, "invalid", "reason"],
    ]);
    expect(problems[1].error?.message).toBe("email: repeats line 1: the address is added once, from that line");
    // One read of the list (a page of 100 holds it all), no add.
    expect(requests).toEqual([{ method: "GET", path: "/v1/suppressions", email: null }]);
  });

  it("reads a CSV file's header: the lines keep the file's numbers (the header is line 1)", async () => {
    const csv = "Reason,Email\nbounce,one@example.com\nunsubscribe,bad@\n,two@example.com";
    const { summary, problems } = await checkSuppressionList(alpha, actor, { csv, fileName: "list.csv", reason: "manual" });
    expect(summary).toMatchObject({ total: 3, toSend: 2, invalid: 1 });
    expect(problems.map((p) => [p.row, p.email])).toEqual([[3, "bad@"]]);
  });

  it("refuses a list with no column of addresses, and more than 10,000 addresses, naming csv", async () => {
    await expect(checkSuppressionList(alpha, actor, { csv: "name\nAda\nGrace", reason: "manual" })).rejects.toMatchObject({ status: 400, param: "csv" });
    const many = Array.from({ length: 10_001 }, (_, i) => `a${i}@example.com`).join("\n");
    await expect(checkSuppressionList(alpha, actor, { csv: many, reason: "manual" })).rejects.toMatchObject({ status: 400, code: "too_many_rows", param: "csv" });
  });
});

describe("the job", () => {
  it("adds the list's addresses with their reasons, audited with its counts", async () => {
    const { id } = await createSuppressionJob(alpha, actor, { csv: PASTED, fileName: "pasted", reason: "unsubscribe", confirmCount: 3 });
    const job = await untilDone(id);
    expect(job).toMatchObject({ kind: "suppressions", totalRows: 7, content: { reason: "unsubscribe" } });
    expect(job.counts).toEqual({ pending: 0, sent: 3, failed: 0, invalid: 2, suppressed: 1, duplicate: 1 });
    const list = await serviceList();
    expect(list.filter((s) => s.email !== "blocked@example.com").sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: "ada@example.com", reason: "unsubscribe" },
      { email: "beta-only@example.com", reason: "unsubscribe" },
      { email: "grace@example.com", reason: "complaint" },
    ]);
    expect(requests.filter((r) => r.method === "POST").map((r) => r.email).sort()).toEqual(["ada@example.com", "beta-only@example.com", "grace@example.com"]);
    const audit = await listAudit(auditQuery.parse({ action: "suppression.bulk_create" }));
    expect(audit.data[0]).toMatchObject({ target: id, actorEmail: actor.email, detail: { total: 7, toAdd: 3, alreadySuppressed: 1, invalid: 2, repeated: 1, reason: "unsubscribe" }, outcome: "success" });
  });

  it("is refused when the list now adds another number than the one confirmed", async () => {
    await expect(createSuppressionJob(alpha, actor, { csv: "new1@example.com\nnew2@example.com", reason: "manual", confirmCount: 1 })).rejects.toMatchObject({ status: 409, param: "confirmCount" });
    expect(requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("resumes after a restart halfway through a chunk: every address once, none of the chunk's added ones sent again", async () => {
    const emails = Array.from({ length: 250 }, (_, i) => `r${i + 1}@example.com`);
    const { id } = await createSuppressionJob(alpha, actor, { csv: ["email,reason", ...emails.map((e, i) => `${e},${i % 2 ? "complaint" : ""}`)].join("\n"), reason: "manual", confirmCount: 250 }, { start: false });
    const d = await db();
    // The instance that died: it took chunk 0 (rows 2-101), added its first 40 addresses, and
    // stopped before writing anything; its lease runs out at once.
    const dead = await claimChunk(d, id, "dead-instance", 1);
    expect(dead).toMatchObject({ idx: 0, attempts: 1 });
    for (const e of emails.slice(0, 40)) expect((await real.svc.call("POST", "/v1/suppressions", { project: "alpha", body: { email: e, reason: "manual" } })).status).toBe(201);
    requests.length = 0;
    await new Promise((r) => setTimeout(r, 20));

    // The restarted dashboard's sweeper finds the job and finishes it.
    expect(await sweepJobs()).toContain(id);
    const job = await untilDone(id);
    expect(job.counts).toMatchObject({ pending: 0, sent: 250, failed: 0 });
    const posted = requests.filter((r) => r.method === "POST").map((r) => r.email);
    expect(posted).toHaveLength(210);
    expect(new Set(posted)).toEqual(new Set(emails.slice(40)));
    // The resumed chunk read the list once before adding (2+ pages), the fresh chunks did not.
    expect(requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(1);
    expect(requests.filter((r) => r.method === "GET").length).toBeLessThanOrEqual(5);

    const list = (await serviceList()).filter((s) => /^r\d+@/.test(s.email));
    expect(list).toHaveLength(250);
    expect(new Set(list.map((s) => s.email))).toEqual(new Set(emails));
    expect(list.find((s) => s.email === "r202@example.com")?.reason).toBe("complaint");
    expect(list.find((s) => s.email === "r201@example.com")?.reason).toBe("manual");
    const chunks = await d.select().from(batchChunks).where(eq(batchChunks.jobId, id));
    expect(chunks.map((c) => c.status)).toEqual(["done", "done", "done"]);
    expect((await jobRows(alpha, id, { statuses: ["sent"], limit: 500 }, "suppressions")).data).toHaveLength(250);
  });
});
