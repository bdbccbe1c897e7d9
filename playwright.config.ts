import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./scripts/lib/chromium";

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
  outputDir: "test-results/playwright",
  // One worker: two cores, and the server under test is shared; tests create their own users.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One report per service target (scripts/lib/e2e-run.ts names it).
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT_FILE ?? "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
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
