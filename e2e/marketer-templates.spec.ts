import path from "node:path";
import { expect, expectNoSeriousA11yViolations, screenshot, settle, test, visit } from "./fixtures";
import { authFile, SCREENSHOTS } from "./support/run";
import { project } from "./helpers/marketer";

test.use({ storageState: authFile("marketer") });

test("a template preview fills a variable, flags a missing one, and shows <script> in merge data as text", async ({ page }) => {
  const checkCalls: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith("/checks")) checkCalls.push(r.url());
  });
  await visit(page, `/p/${project}/templates`);
  await page.getByRole("link", { name: "Welcome" }).click();
  await page.waitForURL(/\/templates\/[^/]+$/);
  await expect(page.getByTestId("missing-variables")).toContainText("firstName");
  // The pre-send checks of the template as it is come with the page: the screen does not ask the
  // checks route (nor load the answer's parser, zod) until the draft changes.
  await expect(page.getByTestId("presend-checks").getByTestId("checks-sizes")).toBeVisible();
  expect(checkCalls).toEqual([]);
  await page.getByTestId("presend-checks").screenshot({ path: path.join(SCREENSHOTS, "marketer-template-checks.png") });
  await page.getByLabel("firstName", { exact: true }).fill("<script>alert(1)</script>Ada");
  await expect(page.getByTestId("preview-subject")).toContainText("<script>alert(1)</script>Ada");
  await page.getByLabel("product", { exact: true }).fill("Acme");
  await expect(page.getByTestId("missing-variables")).not.toContainText("firstName");
  await expect(page.getByTestId("missing-variables")).toContainText("actionUrl");
  const desktop = page.frameLocator('iframe[title="Desktop preview"]');
  await expect(desktop.locator("h1")).toContainText("Welcome, <script>alert(1)</script>Ada!");
  await expect(desktop.locator("script")).toHaveCount(0);
  await expect(page.frameLocator('iframe[title="Mobile preview"]').locator("h1")).toContainText("Ada");
  await expect(page.getByTestId("preview-text")).toContainText("<script>alert(1)</script>Ada");
  await expect(page.getByText(/cannot save templates/)).toBeVisible();
  // The template screen itself, with both previews rendered, is checked with axe too.
  await settle(page);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Save current data as").fill("script in name");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("option", { name: "script in name" })).toHaveCount(1);
  await screenshot(page, "marketer-template");
});

test("a template screen at rest schedules nothing: the preview's debounce is armed by a change, not by every render", async ({ page }) => {
  // Counts the debounce's timers (300 ms) the page starts; installed before the page's own scripts.
  await page.addInitScript(() => {
    const own = window.setTimeout;
    const w = window as unknown as { __debounces: number };
    w.__debounces = 0;
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
      if (delay === 300) w.__debounces++;
      return own(handler, delay, ...args);
    }) as typeof window.setTimeout;
  });
  const debounces = () => page.evaluate(() => (window as unknown as { __debounces: number }).__debounces);
  await visit(page, `/p/${project}/templates`);
  await page.getByRole("link", { name: "Welcome" }).click();
  await page.waitForURL(/\/templates\/[^/]+$/);
  await settle(page);
  // A change arms the debounce, which fires once and renders the preview.
  await page.getByLabel("product", { exact: true }).fill("Acme");
  await expect(page.getByTestId("preview-subject")).toContainText("Welcome to Acme");
  await settle(page);
  const atRest = await debounces();
  // Nothing changes for a second: by its nature a window, the absence of work being the thing
  // checked. A body made afresh on each render re-armed the debounce, whose own render made
  // another: three or more timers in that second.
  await page.waitForTimeout(1_000);
  expect(await debounces()).toBe(atRest);
});
