import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { runToEnd, type Env } from "./child";
import type { Counts } from "./counts";
import { BIN, ROOT, fromRoot } from "./paths";

interface VitestReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numFailedTestSuites?: number;
}

/**
 * `vitest run` with a JSON report beside the usual output, so the totals can be summed
 * with the browser tests. `args` select files (`related ...`) or pass options.
 */
export async function runVitest(label: string, args: string[], env: Env): Promise<Counts> {
  const report = fromRoot("test-results", `vitest-${label}.json`);
  rmSync(report, { force: true });
  const code = await runToEnd(
    process.execPath,
    [BIN.vitest, ...args, "--run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    env,
  );
  const parsed: VitestReport = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : {};
  const counts = { passed: parsed.numPassedTests ?? 0, failed: parsed.numFailedTests ?? 0 };
  // A file that fails to load fails no single test; it must still count.
  if (code !== 0 && counts.failed === 0) counts.failed = Math.max(1, parsed.numFailedTestSuites ?? 0);
  return counts;
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
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testDatabaseHelpers(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      if (readFileSync(full, "utf8").includes("TEST_DATABASE_URL")) found.push(path.relative(ROOT, full));
    }
  }
  return found;
}
