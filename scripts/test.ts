/**
 * `npm test`: the type check (tsc, with the type-level tests), Vitest (unit and integration, PGlite), the database-touching suites again on
 * Postgres when TEST_DATABASE_URL is set (as .ci/run does), then the Playwright suite.
 * Ends with one "N passed, N failed" line summing all of them; non-zero exit if any failed.
 */
import { summaryLine, type Counts } from "./lib/counts";
import { runE2E } from "./lib/e2e-run";
import { runTypecheck } from "./lib/typecheck";
import { runVitest, testDatabaseHelpers } from "./lib/vitest-run";
import { stopChildrenOnSignal } from "./lib/child";

stopChildrenOnSignal();

const parts: { name: string; counts: Counts; seconds: number }[] = [];

async function part(name: string, run: () => Promise<Counts>): Promise<void> {
  console.log(`\n=== ${name} ===\n`);
  const started = Date.now();
  let counts: Counts;
  try {
    counts = await run();
  } catch (error) {
    console.error(`\n${name} could not run: ${(error as Error).message}`);
    counts = { passed: 0, failed: 1 };
  }
  parts.push({ name, counts, seconds: Math.round((Date.now() - started) / 1000) });
}

const postgresUrl = process.env.TEST_DATABASE_URL;
// The first pass is the embedded-database pass whatever the shell says.
const { TEST_DATABASE_URL: _unused, ...pgliteEnv } = process.env;

await part("Type check", () => runTypecheck());
await part("Vitest", () => runVitest("pglite", [], pgliteEnv));

if (postgresUrl) {
  const helpers = testDatabaseHelpers();
  await part(`Vitest on Postgres (suites using ${helpers.join(", ")})`, () =>
    runVitest("postgres", ["related", ...helpers, "--passWithNoTests"], { ...process.env, TEST_DATABASE_URL: postgresUrl }),
  );
} else {
  console.log("\nTEST_DATABASE_URL is not set: the database suites ran on PGlite only (.ci/run also runs them on Postgres).");
}

await part("Playwright", () => runE2E([]));

const total = parts.reduce((sum, p) => ({ passed: sum.passed + p.counts.passed, failed: sum.failed + p.counts.failed }), {
  passed: 0,
  failed: 0,
});
console.log("\n=== Summary ===");
for (const p of parts) console.log(`  ${p.name}: ${summaryLine(p.counts)} (${p.seconds}s)`);
console.log(`\n${summaryLine(total)}`);
process.exit(total.failed > 0 ? 1 : 0);
