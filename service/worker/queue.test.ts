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
  }, { concurrency: 2 });
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
