import { afterAll, beforeAll, expect, it } from "vitest";
import { setTestEnv } from "../test-helpers";
import { DUMMY_HASH, verifyPassword } from "./password";

/**
 * A health-like probe while ten password checks run: how late does a 5 ms timer fire? With
 * bcrypt on the request thread each check took up to 100 ms slices of the event loop, all ten
 * one after another (about a second); in worker threads the loop stays free. Counted as the
 * number of late ticks, with a wide margin for a loaded machine.
 */
beforeAll(() => setTestEnv({ PASSWORD_WORKERS: "2", PASSWORD_QUEUE: "8" }));
afterAll(async () => (await import("./password-pool").catch(() => null))?.resetPasswordPool());

it("ten concurrent password checks do not hold up the event loop", async () => {
  // Workers started first: loading a worker's code is not what is measured.
  await Promise.all([verifyPassword("warm", DUMMY_HASH), verifyPassword("warm", DUMMY_HASH)]);
  const lags: number[] = [];
  let running = true;
  const probe = async () => {
    while (running) {
      const at = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      lags.push(performance.now() - at - 5);
    }
  };
  const probing = probe();
  await Promise.all(Array.from({ length: 10 }, () => verifyPassword("guess", DUMMY_HASH)));
  running = false;
  await probing;
  const late = lags.filter((ms) => ms > 150);
  expect(late, `timer lags over 150 ms: ${late.map(Math.round).join(", ")}`).toHaveLength(0);
  // The probe kept ticking while the checks ran (a second of bcrypt in all, ~5 ms a tick).
  expect(lags.length).toBeGreaterThan(20);
});
