import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { batchChunks, batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { users } from "@/lib/server/db/schema/core";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { contacts as serviceContacts } from "@/service/db/schema";
import { checkBatch, createContactImport, getJob, jobResultsCsv, jobRows } from "./jobs";
import { runJob } from "./runner";

/**
 * Contact import (a CSV → contacts on the service) against the real bundled service over
 * HTTP: mapping of columns, invalid and repeated rows, suppressed addresses (imported: a
 * suppression does not stop a contact from existing), contacts that already exist, a job
 * resumed after a crash, and the results file. Also the batch check's "suppressed" marking,
 * which must only consider the project's own suppressions.
 */
let real: DashboardOnReal["real"];
let close: () => Promise<void>;
let alpha: Project;
const actor: Actor = { id: "u-imp", email: "mia@example.com", name: "Mia", role: "marketer", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s-imp" };

beforeAll(async () => {
  ({ real, alpha, close } = await startDashboardOnReal());
  await (await db()).insert(users).values({ id: actor.id, email: actor.email, role: "marketer" });
  // On the service: an existing contact and a suppression in alpha, a suppression in beta only.
  expect((await real.svc.call("POST", "/v1/contacts", { project: "alpha", body: { email: "exists@example.com", firstName: "Old" } })).status).toBe(201);
  expect((await real.svc.call("POST", "/v1/suppressions", { project: "alpha", body: { email: "blocked@example.com", reason: "bounce" } })).status).toBe(201);
  expect((await real.svc.call("POST", "/v1/suppressions", { project: "beta", body: { email: "beta-only@example.com", reason: "complaint" } })).status).toBe(201);
});
afterAll(() => close());

const CSV = [
  "E-mail,First name,Last name,Plan",
  "ada@example.com,Ada,Lovelace,pro", // row 2: imported, mapped
  "not-an-email,Bad,Row,free", // row 3: invalid
  "ADA@example.com,Ada,Again,team", // row 4: repeats row 2
  "exists@example.com,Already,There,pro", // row 5: the service has it (409)
  "blocked@example.com,Sup,Pressed,free", // row 6: suppressed, imported all the same
  ",No,Address,free", // row 7: invalid (missing)
  "grace@example.com,Grace,Hopper,team", // row 8: imported
].join("\n");
const mapping = { email: "E-mail", firstName: "First name", lastName: "Last name", variables: { Plan: "plan" } };

async function untilDone(id: string) {
  for (let i = 0; i < 400; i++) {
    const job = await getJob(alpha, id, "contacts");
    if (job.status === "done") return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the import did not finish");
}

async function serviceContact(email: string) {
  const rows = await real.svc.db.select().from(serviceContacts).where(and(eq(serviceContacts.projectId, real.svc.alpha.id), eq(serviceContacts.email, email)));
  return rows;
}

describe("contact import", () => {
  let id: string;

  it("imports mapped rows, leaves out invalid and repeated ones, keeps suppressed addresses, and reports existing contacts", async () => {
    ({ id } = await createContactImport(alpha, actor, { csv: CSV, fileName: "people.csv", mapping, subscribed: false }));
    const job = await untilDone(id);
    expect(job).toMatchObject({ kind: "contacts", fileName: "people.csv", totalRows: 7, content: { subscribed: false } });
    expect(job.counts).toEqual({ pending: 0, sent: 3, failed: 0, invalid: 2, suppressed: 0, duplicate: 2 });

    const [ada] = await serviceContact("ada@example.com");
    expect(ada).toMatchObject({ firstName: "Ada", lastName: "Lovelace", subscribed: false, metadata: { plan: "pro" } });
    expect(await serviceContact("blocked@example.com")).toHaveLength(1);
    // The existing contact was not overwritten.
    expect((await serviceContact("exists@example.com"))[0].firstName).toBe("Old");

    const rows = (await jobRows(alpha, id, {}, "contacts")).data;
    expect(rows.map((r) => [r.row, r.status, r.error?.field ?? null])).toEqual([
      [2, "sent", null],
      [3, "invalid", "email"],
      [4, "duplicate", "email"],
      [5, "duplicate", "email"],
      [6, "sent", null],
      [7, "invalid", "email"],
      [8, "sent", null],
    ]);
    expect(rows[0].messageId).toBe(ada.id);
  });

  it("writes the results file with each row's outcome", async () => {
    const { csv, fileName } = await jobResultsCsv(alpha, id, "contacts");
    expect(fileName).toBe(`batch-${id}-results.csv`);
    // The results file is streamed page by page (a 100,000-row job's would not fit one string).
    const lines = (await new Response(csv).text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(8);
    expect(lines.find((l) => l.includes("not-an-email"))).toMatch(/invalid/);
    expect(lines.find((l) => l.includes("exists@example.com"))).toMatch(/duplicate/);
    expect(lines.find((l) => l.includes("grace@example.com"))).toMatch(/sent/);
  });

  it("resumes after a crash without creating a contact twice", async () => {
    const d = await db();
    // As if the process died after the service created the contacts but before they were recorded.
    await d.update(batchRows).set({ status: "pending", messageId: null }).where(and(eq(batchRows.jobId, id), eq(batchRows.status, "sent")));
    await d.update(batchChunks).set({ status: "pending" }).where(eq(batchChunks.jobId, id));
    await d.update(batchJobs).set({ status: "running", finishedAt: null }).where(eq(batchJobs.id, id));
    await runJob(id);
    const job = await untilDone(id);
    expect(job.counts.pending).toBe(0);
    // The service refused the second creation (409): reported as existing, created once.
    expect(job.counts.duplicate).toBe(5);
    for (const email of ["ada@example.com", "blocked@example.com", "grace@example.com"]) expect(await serviceContact(email)).toHaveLength(1);
  });

  it("refuses a mapping that names a missing column, naming the field", async () => {
    await expect(createContactImport(alpha, actor, { csv: CSV, mapping: { email: "Email address", variables: {} }, subscribed: true })).rejects.toMatchObject({ status: 400, param: "mapping.email" });
  });
});

describe("a batch check marks only the project's own suppressions", () => {
  it("an address suppressed in beta is sendable in alpha; one suppressed in alpha is not", async () => {
    const csv = "email\nbeta-only@example.com\nblocked@example.com\nfree@example.com";
    const { summary, problems } = await checkBatch(alpha, actor, {
      csv,
      mapping: { email: "email", variables: {} },
      content: { from: { email: "news@alpha.test" }, subject: "Hello", text: "Hi" },
    });
    expect(summary).toMatchObject({ total: 3, toSend: 2, suppressed: 1 });
    expect(problems.map((p) => [p.email, p.status])).toEqual([["blocked@example.com", "suppressed"]]);
  });
});
