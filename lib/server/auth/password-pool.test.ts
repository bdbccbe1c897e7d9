import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { setTestEnv } from "../test-helpers";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password";
import { passwordPoolStats, resetPasswordPool } from "./password-pool";

/** The process-wide bound on password checks (the review: 20 parallel sign-ins stalled every request). */
beforeAll(async () => {
  setTestEnv({ PASSWORD_WORKERS: "2", PASSWORD_QUEUE: "8" });
  // The counts below are the bounds' (2 running, 8 waiting), not the clock's: none may expire.
  await resetPasswordPool({ timeoutMs: 60_000 });
});
afterAll(() => resetPasswordPool());

describe("verifyPassword", () => {
  it("checks passwords in a worker thread, right and wrong", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("wrong", hash)).toBe(false);
    expect(passwordPoolStats().workers).toBeGreaterThan(0);
  });

  it("runs at most PASSWORD_WORKERS checks at once, queues PASSWORD_QUEUE, and refuses the rest at once with a 429", async () => {
    let mostRunning = 0;
    let mostWorkers = 0;
    const watch = () => {
      const { running, workers } = passwordPoolStats();
      mostRunning = Math.max(mostRunning, running);
      mostWorkers = Math.max(mostWorkers, workers);
    };
    // Twenty sign-ins with made-up emails, all at once: each one compares against DUMMY_HASH.
    const tries = Array.from({ length: 20 }, () => verifyPassword("guess", DUMMY_HASH).finally(watch));
    watch();
    const outcomes = await Promise.allSettled(tries);
    watch();
    const checked = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    // 2 running + 8 waiting were taken; the other 10 were answered without any bcrypt work.
    expect(checked).toHaveLength(10);
    expect(checked.every((o) => o.value === false)).toBe(true);
    expect(refused).toHaveLength(10);
    for (const { reason } of refused) {
      expect(isAppError(reason)).toBe(true);
      expect(reason).toMatchObject({ status: 429, code: "sign_ins_busy", retryAfterMs: 2000, message: "Too many sign-ins at once. Try again in 2 seconds." });
    }
    expect(mostRunning).toBeLessThanOrEqual(2);
    expect(mostWorkers).toBeLessThanOrEqual(2);
    // Once the queue drained, checks are taken again.
    expect(await verifyPassword("guess", DUMMY_HASH)).toBe(false);
  });
});
