import { existsSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./chromium";
import { runToEnd } from "./child";
import { BIN, fromRoot } from "./paths";
import { withRunLock } from "./run-lock";
import { startStack, TEST_REAUTH_MAX_AGE_S } from "./stack";
import type { Counts } from "./counts";

export const E2E_REPORT = fromRoot("test-results", "e2e-report.json");
const LOG_DIR = fromRoot("test-results", "e2e-logs");

interface PlaywrightReport {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
}

function readCounts(): Counts | null {
  if (!existsSync(E2E_REPORT)) return null;
  const { stats } = JSON.parse(readFileSync(E2E_REPORT, "utf8")) as PlaywrightReport;
  if (!stats) return null;
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
}

/**
 * Chromium, then the service and the built dashboard on fresh data, then Playwright against
 * them, then everything stopped. `args` go to `playwright test` (a file, `--grep`, ...).
 */
export async function runE2E(args: string[]): Promise<Counts> {
  const chromium = await ensureChromium();
  return withRunLock("browser-test run", () => runLocked(chromium, args));
}

async function runLocked(chromium: string, args: string[]): Promise<Counts> {
  rmSync(LOG_DIR, { recursive: true, force: true });
  rmSync(E2E_REPORT, { force: true });
  const started = Date.now();
  const stack = await startStack({ logDir: LOG_DIR, keepData: process.env.E2E_KEEP_DATA === "1" });
  console.log(`Service at ${stack.serviceURL}, dashboard at ${stack.baseURL} (ready in ${Math.round((Date.now() - started) / 1000)}s).`);
  let code: number;
  try {
    code = await runToEnd(process.execPath, [BIN.playwright, "test", ...args], {
      ...process.env,
      CHROMIUM_PATH: chromium,
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
  const counts = readCounts() ?? { passed: 0, failed: 0 };
  // A run that failed outside any test (config error, crash) still counts as a failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  if (counts.failed > 0) console.log(`Server output of this run: ${LOG_DIR}/{service,dashboard}.log`);
  return counts;
}
