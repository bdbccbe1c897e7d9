import { test as base, expect, type Locator, type Page } from "@playwright/test";
import path from "node:path";
import { stillPending, untilQuiet, watchPage } from "../scripts/lib/page-quiet";
import { waitForGate } from "../scripts/lib/quiet-gate";
import { axeViolations } from "./support/axe";
import { SCREENSHOTS, run } from "./support/run";
import { budget } from "./support/budget";

export { expect };

/**
 * Untrusted HTML (mail bodies, template previews) renders in iframes sandboxed without
 * scripts. axe-core cannot run inside those (its timers never fire there; the check would
 * wait forever), and their content is the sender's, not the dashboard's. They are left out,
 * and the one rule that concerns the frame element itself, a name, is checked here.
 */
const SCRIPTLESS_FRAME = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/**
 * Fails on serious or critical axe-core violations of the page as it is now. Every screen a
 * test visits goes through here (`visit` does it for you).
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { soft?: boolean } = {}): Promise<void> {
  const violations = await axeViolations(page, SCRIPTLESS_FRAME);
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  const unnamedFrames = await page
    .locator(SCRIPTLESS_FRAME)
    .evaluateAll((frames) => frames.filter((f) => !(f.getAttribute("title") || f.getAttribute("aria-label") || "").trim()).length);
  if (unnamedFrames > 0) serious.push(`frame-title (serious): ${unnamedFrames} sandboxed frame(s) without a title`);
  (options.soft ? expect.soft : expect)(serious, `accessibility of ${new URL(page.url()).pathname}`).toEqual([]);
}

/**
 * Waits until the page has loaded everything it loads on its own (`untilQuiet`: hydrated, no
 * query fetching, no request of its own open); fails if it has not within `timeoutMs`.
 */
export async function settle(page: Page, timeoutMs = budget(15_000)): Promise<void> {
  if (await untilQuiet(page, timeoutMs)) return;
  throw new Error(`${page.url()} has not settled after ${timeoutMs / 1000}s: ${await stillPending(page)}`);
}

/**
 * Presses a button of a dialog whose content is still arriving (the compose review: its checks
 * come after it opens), once the page has settled. Arriving, they make the dialog taller,
 * which moves its buttons; a press and a release that the move falls between is no click at
 * all (a full run: the review stayed open with its confirm button focused until the test
 * timed out, 6 minutes later).
 */
export async function clickWhenSettled(page: Page, button: Locator, action: { double?: boolean; timeout?: number } = {}): Promise<void> {
  await settle(page);
  if (action.double) await button.dblclick({ timeout: action.timeout });
  else await button.click({ timeout: action.timeout });
}

/**
 * Opens a path, waits for it to settle, checks it with axe; returns the HTTP status. The
 * axe check is soft: the test goes on to its own checks and fails at the end.
 */
export async function visit(page: Page, target: string): Promise<number> {
  await watchPage(page);
  const response = await page.goto(target);
  await settle(page);
  await expectNoSeriousA11yViolations(page, { soft: true });
  return response?.status() ?? 0;
}

/**
 * For what arrives in the background (a webhook, a job): reloads the page every second, for up
 * to 45 s, until `found` matches something. Each reload first waits for `loaded` (the list, or
 * its empty state), so a count of 0 means "not there yet", not "not drawn yet".
 */
export async function reloadUntilFound(page: Page, loaded: Locator, found: Locator, message: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(loaded).toBeVisible({ timeout: budget(15_000) });
        return found.count();
      },
      { timeout: budget(45_000), intervals: [1_000], message },
    )
    .toBeGreaterThan(0);
}

/** The guard's refusal page ("You do not have access to this"). */
export const refusal = (page: Page) => page.getByRole("heading", { name: /do not have access/i });

/**
 * A screen the guard refused: HTTP 403 (the layouts refuse before a loading state streams)
 * and the refusal page instead of the screen.
 */
export async function expectRefused(page: Page, status: number, what: string): Promise<void> {
  expect.soft(status, `${what}: HTTP ${status}`).toBe(403);
  await expect.soft(refusal(page), `${what} shows the refusal page`).toBeVisible();
}

/** Resolves once the page has laid out and painted what changed (two animation frames): after a resize or a colour scheme, before a picture. */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** A full-page picture for people reviewing the run, in test-results/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Pictures of the screen as it is (desktop) and on a 390×844 phone, where the page must not
 * scroll sideways (wide parts scroll inside their own box); then back to 1280×800.
 */
export async function phoneFits(page: Page, name: string): Promise<void> {
  await painted(page);
  await screenshot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signedIn(page: Page, email: string, password: string): Promise<void> {
  await signIn(page, email, password);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

export interface ApiAnswer {
  status: number;
  json: unknown;
  text: string;
  headers: Record<string, string>;
}

/**
 * A call to the dashboard's API with the page's session, sent the way its own screens send
 * it: same-origin (an Origin header naming the dashboard) and JSON.
 */
export async function api(page: Page, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const response = await page.request.fetch(route, {
    method,
    headers: { Origin: new URL(run.baseURL).origin, ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    data: body === undefined ? undefined : JSON.stringify(body),
    maxRedirects: 0,
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (a redirect or an HTML page); callers look at status and text.
  }
  return { status: response.status(), json, text, headers: response.headers() };
}

interface Fixtures {
  /** `await axe()` checks the current page. */
  axe: () => Promise<void>;
  /** Closes the browser contexts a test opened itself (see below). */
  closeOpenedContexts: void;
}

interface WorkerFixtures {
  /** Waits for the rest of the run to end, when the harness asks (see below). */
  quietGate: void;
}

/** How long the specs that run alone may wait for the rest of the run (the Postgres pass: 3 minutes at most so far). */
const QUIET_GATE_TIMEOUT_MS = 30 * 60_000;

export const test = base.extend<Fixtures, WorkerFixtures>({
  /**
   * The specs that measure latency run once the rest of the run has ended. The harness starts
   * their Playwright before that (E2E_QUIET_GATE, scripts/lib/quiet-gate.ts), so Playwright's
   * start and the personas' sign-ins (the setup project) overlap its end; the tests' worker
   * waits here for the gate before any `beforeAll` or test of theirs.
   */
  quietGate: [
    async ({}, use, workerInfo) => {
      const gate = process.env.E2E_QUIET_GATE;
      if (gate && workerInfo.project.name !== "setup") await waitForGate(gate, QUIET_GATE_TIMEOUT_MS);
      await use();
    },
    { scope: "worker", auto: true, timeout: QUIET_GATE_TIMEOUT_MS + 60_000 },
  ],
  axe: async ({ page }, use) => {
    await use(() => expectNoSeriousA11yViolations(page));
  },
  /**
   * A test that opens a context of its own (`browser.newContext()`: a guest, a second user)
   * gets it closed when it ends, as Playwright closes the `context` it hands out. The browser
   * is the lane's, shared by all its files: a context left open kept its last screen running
   * for the rest of the lane, its timers and queries asking the dashboard again (one lane of
   * eight files that open their own: 517 CPU-s with this, 535 without). Contexts a
   * `beforeAll` opened for several tests are older than the test and stay. After a failure
   * they stay open too, so the failure's screenshots (taken of every open page) show them.
   */
  closeOpenedContexts: [
    async ({ browser }, use, testInfo) => {
      const before = new Set(browser.contexts());
      await use();
      if (testInfo.status !== testInfo.expectedStatus) return;
      await Promise.all(browser.contexts().filter((context) => !before.has(context)).map((context) => context.close()));
    },
    { auto: true },
  ],
});
