import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testConfig } from "../config";
import type { Deps } from "../context";
import { openTestDatabase } from "../db/test-db";
import { waitFor } from "../test/sending-fixtures";
import { enqueue, startWorker, type Worker } from "./queue";

let close: () => Promise<void>;
let deps: Deps;
let worker: Worker;
let releaseSlow: () => void = () => {};
const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
const done: string[] = [];

beforeAll(async () => {
  const database = await openTestDatabase();
  deps = { db: database.db, config: testConfig(), kick: () => worker.kick() };
  worker = startWorker(deps, {
    // A job that answers only when the test lets it: a webhook endpoint that hangs until its timeout.
    slow: async () => {
      await slowHeld;
      done.push("slow");
    },
    fast: async (_deps, payload) => {
      done.push(String(payload.name));
    },
  }, { concurrency: 2, watched: database.kind === "pglite" });
  close = async () => {
    releaseSlow();
    await worker.stop();
    await database.close();
  };
});
afterAll(() => close());

it("a slow job does not hold back the jobs queued behind it (a pool, not rounds)", async () => {
  await enqueue(deps.db, "slow", {});
  await enqueue(deps.db, "fast", { name: "first" });
  worker.kick();
  await waitFor(async () => done.includes("first"), "the job claimed beside the slow one");
  // Queued while the slow job still runs: with rounds of claims it would wait for the slow one.
  await enqueue(deps.db, "fast", { name: "second" });
  await enqueue(deps.db, "fast", { name: "third" });
  worker.kick();
  await waitFor(async () => done.includes("second") && done.includes("third"), "the jobs queued behind the slow one", 5_000);
  expect(done).not.toContain("slow");
  releaseSlow();
  await waitFor(async () => done.includes("slow"), "the slow job, once let go");
  await worker.idle();
  expect(done.sort()).toEqual(["first", "second", "slow", "third"]);
});

// The worker rests between writes on its own PGlite (contract/db/due-gate.ts): what it must still find.
it("a job queued for later runs once its time comes, with no kick", async () => {
  const runAt = Date.now() + 300;
  await enqueue(deps.db, "fast", { name: "later" }, new Date(runAt));
  await waitFor(async () => done.includes("later"), "the job queued for later", 5_000);
  expect(Date.now()).toBeGreaterThanOrEqual(runAt);
});

it("a job another writer inserts, with no kick, is found at the next poll", async () => {
  await deps.db.execute(sql`insert into jobs (kind, payload) values ('fast', '{"name":"unannounced"}'::jsonb)`);
  await waitFor(async () => done.includes("unannounced"), "the job nobody announced", 5_000);
});
