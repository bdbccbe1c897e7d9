import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { runToEnd, startChild, type Env } from "./child";
import type { Counts } from "./counts";
import type { Failure } from "./failures";
import { BIN, ROOT, fromRoot } from "./paths";
import { passOf, saveVitestDurations } from "./vitest-durations";

export interface VitestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numFailedTestSuites?: number;
  testResults?: {
    name: string;
    startTime?: number;
    endTime?: number;
    status?: string;
    message?: string;
    assertionResults?: { fullName?: string; title?: string; status?: string; failureMessages?: string[] }[];
  }[];
}

/** A test file and how long it ran, as a run's report says. */
export interface FileTime {
  file: string;
  seconds: number;
}

export interface VitestResult {
  counts: Counts;
  files: FileTime[];
  failures: Failure[];
}

/**
 * `vitest run` with a JSON report beside the usual output, so the totals can be summed
 * with the browser tests. `args` select files (`related ...`) or pass options. With `prefix`,
 * its output goes to test-results/logs/<label>.log and to ours with each line prefixed (for
 * parts running side by side); without, to our terminal as Vitest draws it.
 */
export async function runVitest(label: string, args: string[], env: Env, opts: { prefix?: string } = {}): Promise<VitestResult> {
  const report = fromRoot("test-results", `vitest-${label}.json`);
  rmSync(report, { force: true });
  const argv = [BIN.vitest, ...args, "--run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
  let code: number | null;
  if (opts.prefix) {
    mkdirSync(fromRoot("test-results", "logs"), { recursive: true });
    const logFile = fromRoot("test-results", "logs", `${label}.log`);
    rmSync(logFile, { force: true });
    code = await startChild({ name: opts.prefix, command: process.execPath, args: argv, env, echo: "prefix", logFile }).exited;
  } else {
    code = await runToEnd(process.execPath, argv, env);
  }
  let parsed: VitestReport = {};
  try {
    parsed = existsSync(report) ? (JSON.parse(readFileSync(report, "utf8")) as VitestReport) : {};
  } catch {
    // Cut short: counted as a failure below.
  }
  const counts = { passed: parsed.numPassedTests ?? 0, failed: parsed.numFailedTests ?? 0 };
  // A file that fails to load fails no single test; it must still count.
  if (code !== 0 && counts.failed === 0) counts.failed = Math.max(1, parsed.numFailedTestSuites ?? 0);
  const files = (parsed.testResults ?? []).map((t) => ({
    file: path.relative(ROOT, t.name),
    seconds: t.startTime && t.endTime ? (t.endTime - t.startTime) / 1000 : 0,
  }));
  saveVitestDurations(passOf(env), files);
  const failures = failuresOf(parsed, label);
  if (code !== 0 && failures.length === 0) failures.push({ part: label, name: "(the run itself)", message: `vitest exited with ${code}; its output is above.` });
  return { counts, files, failures };
}

/** The failed tests of a report, and the files that failed before any test ran (a load error). */
export function failuresOf(report: VitestReport, part: string): Failure[] {
  const out: Failure[] = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed) out.push({ part, name: `${where} › ${a.fullName ?? a.title ?? "?"}`, message: (a.failureMessages ?? []).join("\n") });
    if (failed.length === 0 && file.status === "failed") out.push({ part, name: where, message: file.message ?? "" });
  }
  return out;
}

const SKIP_DIRS = new Set(["node_modules", ".git", ".data", "scripts", "e2e", "test-results", "public"]);

/**
 * The test-database helpers: source files (not tests) that read TEST_DATABASE_URL, such as
 * lib/server/db/test-db.ts and service/db/test-db.ts. Every test that imports one, directly
 * or not, touches a database, so `vitest related` on them selects exactly the suites to
 * repeat on Postgres, without a naming convention to keep in step.
 */
export function testDatabaseHelpers(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".next") || SKIP_DIRS.has(entry.name)) continue;
    // Vitest's global setup reads the variable to make the template database, imports no test.
    if (path.relative(ROOT, path.join(dir, entry.name)) === path.join("lib", "test", "pglite-template-setup.ts")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testDatabaseHelpers(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      if (readFileSync(full, "utf8").includes("TEST_DATABASE_URL")) found.push(path.relative(ROOT, full));
    }
  }
  return found;
}
