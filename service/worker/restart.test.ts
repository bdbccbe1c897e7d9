import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { createApp } from "../app";
import { testConfig } from "../config";
import type { Deps } from "../context";
import { jobs } from "../db/schema";
import { openTestDatabase } from "../db/test-db";
import { createAccount, createApiKey, createProject } from "../lib/accounts";
import { forgetCachedKeys } from "../lib/auth";
import { eventsOf } from "../lib/messages";
import { tempDir } from "../test/harness";
import { addVerifiedDomain, waitFor } from "../test/sending-fixtures";
import { jobHandlers } from "./handlers";
import { startWorker } from "./queue";

const data = tempDir("svc-restart-");
afterAll(() => data.remove());

/** One process life of the service on the same data directory (or the same Postgres database). */
async function open(name: string, withWorker: boolean) {
  forgetCachedKeys();
  const database = await openTestDatabase({ dataDir: data.dir, name });
  let worker: ReturnType<typeof startWorker> | null = null;
  const deps: Deps = { db: database.db, config: testConfig(), kick: () => worker?.kick() };
  if (withWorker) worker = startWorker(deps, jobHandlers);
  return { deps, app: createApp(deps), close: async () => { await worker?.stop(); await database.close(); } };
}

it("sends a scheduled message exactly once after a restart", async () => {
  const name = `svc_restart_${randomBytes(4).toString("hex")}`;
  const first = await open(name, true);
  const account = await createAccount(first.deps.db, "Restart");
  const project = await createProject(first.deps.db, account.id, "restart");
  const { secret } = await createApiKey(first.deps.db, { accountId: account.id, projectId: project.id, name: "k" });
  await addVerifiedDomain(first.deps.db, project.id, "restart.test");

  const res = await first.app.request("/v1/emails", {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      from: { email: "a@restart.test" }, to: [{ email: "someone@example.com" }], subject: "Later", text: "x",
      // An hour ahead: the first life surely ends before it; the second makes it due below.
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    }),
  });
  expect(res.status).toBe(202);
  const { id } = await res.json();
  // The first life ends before the message is due.
  await first.close();

  const second = await open(name, true);
  try {
    expect((await eventsOf(second.deps.db, id)).map((e) => e.type)).toEqual(["accepted", "queued"]);
    // Its time comes in the second life (the job moved to now rather than waited for).
    const due = new Date();
    await second.deps.db.update(jobs).set({ runAt: due }).where(sql`${jobs.payload}->>'messageId' = ${id}`);
    second.deps.kick();
    const events = await waitFor(async () => {
      const list = await eventsOf(second.deps.db, id);
      return list.some((e) => e.type === "delivery") ? list : null;
    }, "the scheduled message to be delivered");
    // Once no job for the message is left in the queue, a duplicate run would have shown itself.
    await waitFor(async () => {
      const left = await second.deps.db.select().from(jobs);
      return left.every((j) => j.payload.messageId !== id) ? true : null;
    }, "the message's jobs to finish");
    const final = await eventsOf(second.deps.db, id);
    expect(final.filter((e) => e.type === "sent")).toHaveLength(1);
    expect(final.filter((e) => e.type === "sending")).toHaveLength(1);
    expect(events.find((e) => e.type === "sending")!.createdAt.getTime()).toBeGreaterThanOrEqual(due.getTime());
  } finally {
    await second.close();
  }
});
