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

  vi.stubEnv("NODE_ENV", "test");
  vi.resetModules();
  expect(await (await import("./password")).hashPassword("correct horse battery")).toMatch(/^\$2[aby]\$04\$/);
});
