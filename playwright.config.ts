import { defineConfig } from "@playwright/test";
import { budget } from "./e2e/support/budget";
import { TEST_CHROMIUM_ARGS, chromiumPath } from "./scripts/lib/chromium";
import { playwrightTrace } from "./scripts/lib/e2e-lanes";

/**
 * Run through `npm run test:e2e` (or `npm test`), which starts the local service and the
 * built dashboard on fresh data and passes their addresses in E2E_* variables.
 */
const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) {
  throw new Error("E2E_BASE_URL is not set: run the browser tests with `npm run test:e2e`, which starts what they need.");
}

export default defineConfig({
  testDir: "e2e",
  // One folder per lane (scripts/lib/e2e-run.ts): Playwright empties it when it starts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results/playwright",
  // One worker per stack: its specs share the server under test. The harness runs several
  // stacks side by side instead (lanes, scripts/lib/e2e-lanes.ts).
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Grown by the run's time scale on a slower machine (scripts/lib/time-scale.ts).
  timeout: budget(60_000),
  expect: { timeout: budget(10_000) },
  // One report per lane (scripts/lib/e2e-run.ts names it).
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT_FILE ?? "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    // The trace the harness chose for the lane (traceFor in scripts/lib/e2e-lanes.ts): none in
    // the whole suite's lanes, a failed test's trace when files are run by name. Never the
    // screencast film strip: encoding a frame at every paint of every test cost a sixth of the
    // CPU of a lane (support-messages, shell and marketer-templates alone, stack included:
    // 65.8 s of CPU with it, 55.3 s without); the failure's own screenshot is kept (below).
    trace: playwrightTrace(),
    screenshot: "only-on-failure",
    launchOptions: { executablePath: chromiumPath(), args: TEST_CHROMIUM_ARGS },
  },
  projects: [
    // Documenso/Dub pattern: sign in once per role and save the session for the specs.
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    { name: "chromium", testMatch: /\.spec\.ts$/, testIgnore: /journeys\//, dependencies: ["setup"] },
    // Journeys of every screen, written once for any service that speaks the interface; the
    // harness runs them against the bundled service and the contrarian (E2E_TARGET says which).
    { name: "journeys", testMatch: /journeys\/.*\.spec\.ts$/, dependencies: ["setup"] },
  ],
});
