/**
 * `npm test`: the type check (tsc, with the type-level tests), Vitest (unit and integration,
 * PGlite), the Playwright suite, and the database-touching suites again on Postgres when
 * TEST_DATABASE_URL is set (as .ci/run does), with parts side by side where they do not wait on
 * each other:
 *
 *   the build of the dashboard ── type check
 *   Vitest on PGlite ── Playwright (lanes side by side, scripts/lib/e2e-lanes.ts)
 *                       from the last lane on: Vitest on Postgres, then the demo's lane beside it
 *   then, once all of them have ended, the browser specs that measure latency (they run alone).
 *
 * Vitest on PGlite computes on both cores; the build and the type check fit beside it. The
 * browser lanes compute on both cores too, so they start after it: side by side on two cores,
 * each took twice as long, and browser tests ran out of time waiting on a starved service.
 * The Postgres pass computes as much, but the last lane leaves most of the machine idle (one
 * lane kept two cores 50-70 % busy), and so does the demo's lane, the first of the specs that
 * run alone (its month handed over to one dashboard): the pass starts when the lanes are down
 * to their last, and the specs that measure latency wait for it to end. The type check
 * follows the build, which writes the route types it reads (.next-e2e/types). Each part's
 * lines are prefixed with its name. Ends with the slowest test files and browser tests, the
 * failed tests named again (CI shows only a run's tail), then one "N passed, N failed"
 * line summing all parts; non-zero exit if any failed.
 */
import { summaryLine, type Counts } from "./lib/counts";
import { runE2E, type BrowserTest, type E2EResult } from "./lib/e2e-run";
import { printFailures, type Failure } from "./lib/failures";
import { stopChildrenOnSignal } from "./lib/child";
import { withRunLock } from "./lib/run-lock";
import { printSlowest } from "./lib/slowest";
import { buildTestDashboard } from "./lib/stack";
import { runTypecheck } from "./lib/typecheck";
import { runVitest, testDatabaseHelpers, type FileTime } from "./lib/vitest-run";

stopChildrenOnSignal();

interface Part {
  name: string;
  counts: Counts;
  seconds: number;
}

const started = Date.now();
const parts: Part[] = [];
const files: (FileTime & { part: string })[] = [];
const browserTests: BrowserTest[] = [];
const failures: Failure[] = [];
const at = () => `${Math.round((Date.now() - started) / 1000)}s`;

async function part(name: string, run: () => Promise<Counts>): Promise<void> {
  console.log(`\n=== ${name} (starts at ${at()}) ===\n`);
  const partStarted = Date.now();
  let counts: Counts;
  try {
    counts = await run();
  } catch (error) {
    console.error(`\n${name} could not run: ${(error as Error).message}`);
    counts = { passed: 0, failed: 1 };
    failures.push({ part: name, name: "(the part itself)", message: `could not run: ${(error as Error).message}` });
  }
  const seconds = Math.round((Date.now() - partStarted) / 1000);
  parts.push({ name, counts, seconds });
  console.log(`\n=== ${name}: ${summaryLine(counts)} in ${seconds}s (ends at ${at()}) ===\n`);
}

async function vitest(name: string, label: string, args: string[], env: NodeJS.ProcessEnv): Promise<Counts> {
  const result = await runVitest(label, args, env, { prefix: label });
  files.push(...result.files.map((f) => ({ ...f, part: name })));
  failures.push(...result.failures.map((f) => ({ ...f, part: name.replace(/ \(suites using .*\)$/, "") })));
  return result.counts;
}

/** A browser part's tests kept for the summary; failures outside any test (a lane that did not start) named too. */
function browserPart(name: string, result: E2EResult): Counts {
  browserTests.push(...result.tests);
  const named = result.tests.filter((t) => t.failure !== undefined).length;
  if (result.counts.failed > named) failures.push({ part: name, name: `${result.counts.failed - named} failure(s) outside any test`, message: "a lane's stack or Playwright itself: its lines above say why" });
  return result.counts;
}

await withRunLock("test run", async () => {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  // The first pass is the embedded-database pass whatever the shell says.
  const { TEST_DATABASE_URL: _unused, ...pgliteEnv } = process.env;

  const build = buildTestDashboard({ prefix: "build" });
  // Settled either way: a failed build fails the parts that need it, each saying why.
  const built = build.then(
    () => null,
    (error: Error) => error,
  );
  const afterBuild = (name: string, run: () => Promise<Counts>) =>
    built.then((error) =>
      part(name, async () => {
        if (error) throw error;
        return run();
      }),
    );

  const pglite = part("Vitest", () => vitest("Vitest", "pglite", [], pgliteEnv));
  const typecheck = afterBuild("Type check", () => runTypecheck({ prefix: "tsc" }));
  // The Postgres pass starts once the lanes are down to their last (or have ended).
  let lastLane = () => {};
  const lanesThinned = new Promise<void>((resolve) => (lastLane = resolve));
  const browser = Promise.all([pglite, built]).then(() =>
    part("Playwright", async () => {
      const error = await built;
      if (error) throw error;
      return browserPart("Playwright", await runE2E([], "lanes", { aloneFollows: true, onLastLane: lastLane }));
    }),
  );
  void browser.then(lastLane);
  let postgres: Promise<void> = Promise.resolve();
  if (postgresUrl) {
    const helpers = testDatabaseHelpers();
    const name = `Vitest on Postgres (suites using ${helpers.join(", ")})`;
    // After the build too: tests/cluster starts two built dashboards. Three files at a time,
    // not two: its files wait on the server, on leases and on the dashboards they start (the
    // pass kept the two cores 72-76 % busy in a full run), and a third file fills those waits.
    // Measured alone on the 2-core machine, interleaved: 140 s and 156 s with three, 159 s and
    // 194 s with two (the same 887 tests, about the same CPU), 159 s with four.
    const workers = ["--maxWorkers", "3"];
    postgres = Promise.all([pglite, built, lanesThinned]).then(() =>
      part(name, () => vitest(name, "postgres", ["related", ...helpers, "--passWithNoTests", ...workers], { ...process.env, TEST_DATABASE_URL: postgresUrl })),
    );
  } else {
    console.log("\nTEST_DATABASE_URL is not set: the database suites run on PGlite only (.ci/run also runs them on Postgres).");
  }
  await Promise.all([pglite, typecheck, browser]);
  // The demo's lane beside the end of the Postgres pass; the specs that measure latency once
  // nothing else of the run computes beside them.
  const alone = afterBuild("Playwright, specs that run alone", async () => {
    return browserPart("Playwright, specs that run alone", await runE2E([], "alone", { quietAfter: postgres }));
  });
  await Promise.all([alone, postgres]);
});

printSlowest(files, browserTests);
for (const t of browserTests) if (t.failure !== undefined) failures.push({ part: `Playwright, ${t.lane}`, name: `${t.file} › ${t.title}`, message: t.failure });
printFailures(failures);

const rank = (p: Part) => (p.name === "Type check" ? 0 : p.name === "Vitest" ? 1 : p.name.startsWith("Vitest on Postgres") ? 2 : p.name === "Playwright" ? 3 : 4);
parts.sort((a, b) => rank(a) - rank(b));
const total = parts.reduce((sum, p) => ({ passed: sum.passed + p.counts.passed, failed: sum.failed + p.counts.failed }), { passed: 0, failed: 0 });
console.log(`\n=== Summary (${at()} in all) ===`);
for (const p of parts) console.log(`  ${p.name}: ${summaryLine(p.counts)} (${p.seconds}s)`);
console.log(`\n${summaryLine(total)}`);
process.exit(total.failed > 0 ? 1 : 0);
