import { existsSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./chromium";
import { runToEnd } from "./child";
import type { Counts } from "./counts";
import { BIN, fromRoot } from "./paths";
import { withRunLock } from "./run-lock";
import { SERVICE_TARGETS, startStack, TEST_REAUTH_MAX_AGE_S, type ServiceTarget } from "./stack";

const LOG_ROOT = fromRoot("test-results", "e2e-logs");
/** Playwright's JSON report of one target's run (playwright.config.ts reads E2E_REPORT_FILE). */
export const e2eReport = (target: ServiceTarget) => fromRoot("test-results", `e2e-report-${target}.json`);

/** The Playwright project of the journeys, the specs run against every service target. */
export const JOURNEYS_PROJECT = "journeys";

interface PlaywrightReport {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
}

function readCounts(file: string): Counts | null {
  if (!existsSync(file)) return null;
  const { stats } = JSON.parse(readFileSync(file, "utf8")) as PlaywrightReport;
  if (!stats) return null;
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
}

/**
 * Which services to run against. E2E_TARGET names one (`bundled`, `contrarian`). Without it:
 * the whole suite (no arguments), or arguments naming the journeys, run on both; arguments
 * naming other specs run on the bundled service only, where those specs belong.
 */
export function targetsFor(args: string[], named = process.env.E2E_TARGET): ServiceTarget[] {
  if (named) {
    if (!(SERVICE_TARGETS as readonly string[]).includes(named)) throw new Error(`E2E_TARGET must be one of ${SERVICE_TARGETS.join(", ")}, not "${named}"`);
    return [named as ServiceTarget];
  }
  const files = args.filter((a) => !a.startsWith("-"));
  if (files.length === 0 || files.some((a) => a.includes("journeys"))) return [...SERVICE_TARGETS];
  return ["bundled"];
}

/**
 * Chromium, then for each target the service and the built dashboard on fresh data,
 * Playwright against them, then everything stopped. On the bundled service the whole suite
 * runs (existing specs and journeys); on the contrarian, the journeys. `args` go to
 * `playwright test` (a file, `--grep`, ...). The counts are summed over the targets.
 */
export async function runE2E(args: string[]): Promise<Counts> {
  const chromium = await ensureChromium();
  const targets = targetsFor(args);
  return withRunLock("browser-test run", async () => {
    rmSync(LOG_ROOT, { recursive: true, force: true });
    const total: Counts = { passed: 0, failed: 0 };
    for (const target of targets) {
      const counts = await runTarget(chromium, target, args);
      console.log(`e2e on the ${target} service: ${counts.passed} passed, ${counts.failed} failed`);
      total.passed += counts.passed;
      total.failed += counts.failed;
    }
    return total;
  });
}

async function runTarget(chromium: string, target: ServiceTarget, args: string[]): Promise<Counts> {
  const logDir = `${LOG_ROOT}/${target}`;
  const report = e2eReport(target);
  rmSync(report, { force: true });
  const started = Date.now();
  console.log(`\n--- e2e against the ${target} service ---`);
  const stack = await startStack({ logDir, target, keepData: process.env.E2E_KEEP_DATA === "1" });
  console.log(`Service at ${stack.serviceURL}, dashboard at ${stack.baseURL} (ready in ${Math.round((Date.now() - started) / 1000)}s).`);
  // The other specs were written for the bundled service (its seed, its sandbox addresses);
  // the journeys are written for any service, through their target descriptor.
  const projectArgs = target === "bundled" ? [] : [`--project=${JOURNEYS_PROJECT}`];
  let code: number;
  try {
    code = await runToEnd(process.execPath, [BIN.playwright, "test", ...projectArgs, ...args], {
      ...process.env,
      CHROMIUM_PATH: chromium,
      E2E_TARGET: target,
      E2E_REPORT_FILE: report,
      E2E_BASE_URL: stack.baseURL,
      E2E_SERVICE_URL: stack.serviceURL,
      E2E_SERVICE_ENV_FILE: stack.serviceEnvFile,
      E2E_PROJECTS: stack.projects.join(","),
      E2E_ADMIN_EMAIL: stack.admin.email,
      E2E_ADMIN_PASSWORD: stack.admin.password,
      REAUTH_MAX_AGE_S: TEST_REAUTH_MAX_AGE_S,
    });
  } finally {
    await stack.stop();
  }
  const counts = readCounts(report) ?? { passed: 0, failed: 0 };
  // A run that failed outside any test (config error, crash) still counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  if (counts.failed > 0) console.log(`Server output of this run: ${logDir}/{service,dashboard}.log`);
  return counts;
}
