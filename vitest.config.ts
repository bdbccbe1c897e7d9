import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import LongestFirst from "./scripts/lib/vitest-order";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)), "server-only": fileURLToPath(new URL("./lib/test/server-only-stub.ts", import.meta.url)) },
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    // e2e/ holds Playwright specs, except the contrarian service, whose own tests are Vitest.
    // (.next-e2e/ is the browser tests' build: its traced node_modules hold packages' own tests.)
    exclude: ["node_modules/**", ".next/**", ".next-e2e/**", "e2e/!(contrarian-service)/**", ".data/**"],
    environment: "node",
    // The empty PGlite directory test databases are copied from, made once for the run.
    globalSetup: ["./lib/test/pglite-template-setup.ts"],
    // next-auth imports "next/server" without an extension; inlining lets Vite resolve it.
    server: { deps: { inline: ["next-auth"] } },
    // Limits for a test that hangs, with room for a loaded machine: npm test runs the Postgres
    // pass beside the browser lanes on two cores, where CPU-heavy tests (bcrypt, refresh
    // interleavings) took over 30 s that take 7-14 s alone.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite instances are heavy; files run in two forks.
    pool: "forks",
    // Longest first, from the last run's times (scripts/lib/vitest-order.ts).
    sequence: { sequencer: LongestFirst },
    maxWorkers: 2,
    // The files of a fork share its process and loaded modules rather than each starting a
    // process and importing the dashboard afresh. Each starts with the process's first
    // environment, none of the dashboard's globalThis holders and Node's HTTP server unhooked
    // (./lib/test/as-if-own-process.ts); a file that mocks a module another file may have
    // loaded calls vi.resetModules() (password-off-thread.test.ts). The whole PGlite run took 333 s and 599 CPU-s
    // so (387 s and 721 CPU-s in a shuffled order), against 442 s and 801 CPU-s with a process
    // per file (this 2-core machine, one run each).
    isolate: false,
    setupFiles: ["./lib/test/as-if-own-process.ts"],
    // V8's baseline compiler (Liftoff) alone: the optimising tier's background compiles cost
    // more CPU than the tests' short runs win back (the whole run: 599 CPU-s against 697 with
    // both tiers, one run each). Tests only: the dashboard itself runs with both tiers.
    execArgv: ["--liftoff-only"],
  },
});
