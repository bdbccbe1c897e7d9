import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { batchJobs, batchRows } from "@/lib/server/db/schema/batches";
import { users } from "@/lib/server/db/schema/core";
import { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { recordSentMessages } from "@/lib/server/message-index/record";
import { registerProject, removeProject } from "@/lib/server/projects";
import { useTestProject } from "@/lib/test/project-db";

/**
 * Recipients, batch rows and a message's sender have no foreign key (its check cost a look-up
 * and a lock per row); what the key did on delete is done by statement triggers
 * (drizzle/0010). Run on PGlite and, in the Postgres pass, on Postgres.
 */
const fixture = useTestProject();
const send = (to: string) => ({ from: { email: "news@acme.test" }, to: [{ email: to }], cc: [{ email: "cc@acme.test" }], subject: "Hi", text: "Hi" });
const record = (projectId: string, ids: string[], sentBy: string | null = null) =>
  recordSentMessages(ids.map((id, i) => ({ projectId, messageId: id, request: send(`r${i}@example.com`), sentBy, idempotencyKey: null, source: "dashboard" as const })));
const recipientsOf = async (ids: string[]) => (await (await db()).select({ id: indexedRecipients.messageId }).from(indexedRecipients).where(inArray(indexedRecipients.messageId, ids))).map((r) => r.id).sort();

describe("what deleting takes with it", () => {
  it("a deleted message takes its addresses, and only its own", async () => {
    const d = await db();
    await record(fixture.project.id, ["del-1", "del-2", "del-3"]);
    expect(await recipientsOf(["del-1", "del-2", "del-3"])).toHaveLength(9);
    await d.delete(indexedMessages).where(inArray(indexedMessages.id, ["del-1", "del-3"]));
    expect(await recipientsOf(["del-1", "del-2", "del-3"])).toEqual(["del-2", "del-2", "del-2"]);
  });

  it("a deleted user leaves the messages they sent, without a sender", async () => {
    const d = await db();
    await d.insert(users).values([{ id: "u-gone", email: "gone@example.com", role: "marketer" }, { id: "u-stays", email: "stays@example.com", role: "marketer" }]);
    await record(fixture.project.id, ["by-gone"], "u-gone");
    await record(fixture.project.id, ["by-stays"], "u-stays");
    await d.delete(users).where(eq(users.id, "u-gone"));
    const rows = await d.select({ id: indexedMessages.id, sentBy: indexedMessages.sentBy }).from(indexedMessages).where(inArray(indexedMessages.id, ["by-gone", "by-stays"])).orderBy(indexedMessages.id);
    expect(rows).toEqual([{ id: "by-gone", sentBy: null }, { id: "by-stays", sentBy: "u-stays" }]);
  });

  it("a removed project takes its messages with their addresses, and its batch jobs with their rows", async () => {
    const d = await db();
    const other = await registerProject({ externalId: "p-removed" }, SYSTEM_ACTOR, { checkWithService: false });
    await record(other.id, ["gone-1", "gone-2"]);
    await record(fixture.project.id, ["kept-1"]);
    const job = { projectExternalId: "x", kind: "send" as const, status: "done" as const, totalRows: 1, createdByEmail: "a@example.com" };
    await d.insert(batchJobs).values([{ ...job, id: "job-gone", projectId: other.id }, { ...job, id: "job-kept", projectId: fixture.project.id }]);
    await d.insert(batchRows).values([{ jobId: "job-gone", row: 2, email: "a@example.com", status: "sent" }, { jobId: "job-kept", row: 2, email: "b@example.com", status: "sent" }]);
    await removeProject(other.id, SYSTEM_ACTOR);
    expect(await recipientsOf(["gone-1", "gone-2", "kept-1"])).toEqual(["kept-1", "kept-1", "kept-1"]);
    expect((await d.select({ jobId: batchRows.jobId }).from(batchRows).where(inArray(batchRows.jobId, ["job-gone", "job-kept"]))).map((r) => r.jobId)).toEqual(["job-kept"]);
  });
});
