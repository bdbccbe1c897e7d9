import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Actor, Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { batchRows } from "@/lib/server/db/schema/batches";
import { users } from "@/lib/server/db/schema/core";
import { erasedAddresses } from "@/lib/server/db/schema/retention";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { eraseRecipient } from "@/lib/server/retention/erase";
import { holdErasureLock } from "@/lib/server/redaction/redactor";
import { sealAddress } from "@/lib/server/redaction/sealed-address";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { messages } from "@/service/db/schema";
import { addVerifiedDomain } from "@/service/test/sending-fixtures";
import { createSendJob, getJob } from "./jobs";
import { runJob, settleRunningJobs } from "./runner";

/**
 * Issue 25, finding M4: a batch never mails an address erased while it is queued or running.
 * The worker reads the project's erasures again right before each chunk goes to the service
 * (./erased-rows.ts), and a chunk's outcome never overwrites a row the erasure marked.
 * Against the bundled service, which records every message it is asked to send.
 */
let real: DashboardOnReal["real"];
let close: () => Promise<void>;
let project: Project;
/** Run by the service when a batch request arrives, before it handles it. */
let onBatch: ((body: string) => Promise<void>) | null = null;
const actor: Actor = { id: "u-erase", email: "mia@example.com", name: "Mia", role: "marketer", active: true, allProjects: true, projectIds: [], authAt: null, sessionId: "s-erase" };
const support: Actor = { ...actor, id: "u-support", role: "support" };
const mapping = { email: "email", name: "name", variables: {} };
const content = { from: { email: "news@alpha.test" }, subject: "Hello {{name}}", text: "Hi" };

beforeAll(async () => {
  ({ real, alpha: project, close } = await startDashboardOnReal({
    serviceTimeoutMs: 20_000,
    service: { before: async (req) => void (new URL(req.url).pathname === "/v1/emails/batch" && (await onBatch?.(await req.text()))) },
  }));
  await addVerifiedDomain(real.svc.db, real.svc.alpha.id, "alpha.test");
  await (await db()).insert(users).values({ id: actor.id, email: actor.email, role: "marketer" });
});
afterAll(() => close());

/** Every address the service was asked to send to. */
const serviceRecipients = async () => (await real.svc.db.select({ to: messages.to }).from(messages)).flatMap((m) => m.to.map((a) => a.email.toLowerCase()));
const rowOf = async (jobId: string, row: number) => (await (await db()).select().from(batchRows).where(and(eq(batchRows.jobId, jobId), eq(batchRows.row, row))))[0]!;

describe("a batch and an erasure of one of its recipients", () => {
  it("an erasure under way when the job runs: the service receives nothing for the address", async () => {
    const erased = "erase-me@example.com";
    const csv = ["email,name", "ann@example.com,Ann", `${erased},Erase Me`, "bob@example.com,Bob"].join("\n");
    const { id } = await createSendJob(project, actor, { csv, fileName: "queued.csv", mapping, content, confirmCount: 3 }, { start: false });
    expect((await rowOf(id, 3)).status).toBe("pending");
    // The erasure's first step (lib/server/retention/erase.ts): the address recorded as erased.
    // Its pass over the batch rows comes later; meanwhile the queued job runs.
    await (await db()).transaction(async (tx) => {
      await holdErasureLock(tx, project.id);
      await tx.insert(erasedAddresses).values({ projectId: project.id, addressHash: addressHash(erased), sealed: sealAddress(erased) });
    });
    await runJob(id);
    await settleRunningJobs();

    const sentTo = await serviceRecipients();
    expect(sentTo).toEqual(expect.arrayContaining(["ann@example.com", "bob@example.com"]));
    expect(sentTo).not.toContain(erased);
    expect(await rowOf(id, 3)).toMatchObject({ email: addressHash(erased), name: null, data: {}, status: "invalid", errorCode: "erased", messageId: null });
    expect((await getJob(project, id)).status).toBe("done");

    // The erasure ends; the row stays as it is, and nothing is sent to the address.
    await eraseRecipient(project, support, erased, { confirmEmail: erased });
    expect(await rowOf(id, 3)).toMatchObject({ status: "invalid", errorCode: "erased" });
    expect(await serviceRecipients()).not.toContain(erased);
  });

  it("an erasure while the chunk is at the service: its outcome does not overwrite the row the erasure marked", async () => {
    const erased = "erase-two@example.com";
    const csv = ["email,name", "carol@example.com,Carol", `${erased},Erase Two`].join("\n");
    const { id } = await createSendJob(project, actor, { csv, fileName: "running.csv", mapping, content, confirmCount: 2 }, { start: false });
    let erasedDuringCall = false;
    onBatch = async (body) => {
      if (!body.includes(erased) || erasedDuringCall) return;
      erasedDuringCall = true;
      await eraseRecipient(project, support, erased, { confirmEmail: erased });
    };
    try {
      await runJob(id);
      await settleRunningJobs();
    } finally {
      onBatch = null;
    }
    expect(erasedDuringCall).toBe(true);
    expect(await rowOf(id, 2)).toMatchObject({ status: "sent" });
    expect(await rowOf(id, 3)).toMatchObject({ email: addressHash(erased), status: "invalid", errorCode: "erased", messageId: null });
    expect((await getJob(project, id)).counts).toMatchObject({ sent: 1, invalid: 1 });
  });
});
