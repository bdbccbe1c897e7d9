import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { setTestEnv } from "../test-helpers";

/**
 * The compare runs off the request thread: here bcrypt's compare functions throw, as they do
 * nowhere else, and every check still answers right, so none of them ran on this thread. (On
 * the request thread, ten checks held the event loop for about a second, in ~100 ms slices.)
 * A worker thread has a module registry of its own, which this mock does not reach.
 */
vi.mock("bcryptjs", async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof import("bcryptjs") }>()).default;
  const onThisThread = () => {
    throw new Error("bcrypt compare ran on the request thread");
  };
  return { default: { ...real, compare: onThisThread, compareSync: onThisThread } };
});

beforeAll(() => {
  setTestEnv({ PASSWORD_WORKERS: "2", PASSWORD_QUEUE: "8" });
  // Test files share their process's modules (vitest.config.ts): a password.ts an earlier file
  // loaded holds the real bcryptjs, so it is loaded again here, under the mock, and dropped after.
  vi.resetModules();
});
afterAll(async () => {
  await (await import("./password-pool").catch(() => null))?.resetPasswordPool();
  vi.resetModules();
});

it("ten concurrent password checks answer right without a compare on the request thread", async () => {
  const bcrypt = (await import("bcryptjs")).default;
  // A long time bound: two workers loading their source through tsx on a loaded machine may take
  // longer than PASSWORD_TIMEOUT_MS to start, which is not what this test is about.
  await (await import("./password-pool")).resetPasswordPool({ timeoutMs: 60_000 });
  const { verifyPassword } = await import("./password");
  const hash = bcrypt.hashSync("right horse battery", 4);
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => verifyPassword(i % 2 ? "right horse battery" : "wrong", hash)));
  expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => i % 2 === 1));
});
