import bcrypt from "bcryptjs";
import { afterEach, expect, it, vi } from "vitest";

/** Vitest hashes at the lowest cost to stay quick (password.ts); the dashboard itself never may. */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

it("hashes at cost 11 outside the tests, and at 4 inside them", async () => {
  vi.stubEnv("NODE_ENV", "production");
  vi.resetModules();
  const production = await import("./password");
  expect(await production.hashPassword("correct horse battery")).toMatch(/^\$2[aby]\$11\$/);
  expect(production.DUMMY_HASH).toMatch(/^\$2[aby]\$11\$/);
  // A well-formed hash that the time of a real check is spent on (a malformed one fails at once).
  expect(await bcrypt.compare("not-a-real-password-used-for-timing", production.DUMMY_HASH)).toBe(true);

  vi.stubEnv("NODE_ENV", "test");
  vi.resetModules();
  const tests = await import("./password");
  expect(await tests.hashPassword("correct horse battery")).toMatch(/^\$2[aby]\$04\$/);
  expect(tests.DUMMY_HASH).toMatch(/^\$2[aby]\$04\$/);
  expect(await bcrypt.compare("not-a-real-password-used-for-timing", tests.DUMMY_HASH)).toBe(true);
});
