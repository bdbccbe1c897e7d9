import type { Locator, Page } from "@playwright/test";
import { api, expect, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { project, screenshotVariants, send, unique } from "./support-helpers";
import { budget } from "./support/budget";

/**
 * The overview's and the deliverability screen's bar charts (components/charts): one list item
 * per bar named with its figures, the tooltip on hover and on keyboard focus, the arrow keys
 * between bars, one tab stop. Only delivered mail is sent, so no alert is raised.
 */
test.use({ storageState: authFile("admin") });

type Overview = { counts: { "24h": { delivered: number } }; series: { at: string; delivered: number }[] };
type Deliverability = { providers: { provider: string; delivered: number }[] };

const overview = async (page: Page) => (await api(page, "GET", `/api/p/${project}/overview?range=24h`)).json as Overview;
const tooltip = (page: Page) => page.getByTestId("chart-tooltip");
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");

async function expectFocused(bars: Locator, index: number): Promise<void> {
  await expect(bars.nth(index)).toBeFocused();
  expect(await bars.evaluateAll((items) => items.map((b) => b.getAttribute("tabindex")).filter((t) => t === "0").length)).toBe(1);
}

test("the overview's chart: a bar per hour, named with its figures, tooltip on hover and keyboard", async ({ page }) => {
  const before = (await overview(page)).counts["24h"].delivered;
  const u = unique();
  for (const to of [`delivered+${u}a@gmail.com`, `delivered+${u}b@gmail.com`, `delivered+${u}c@outlook.com`]) await send({ to, subject: `Chart ${u}` });
  await expect.poll(async () => (await overview(page)).counts["24h"].delivered, { timeout: budget(30_000) }).toBeGreaterThanOrEqual(before + 3);
  const series = (await overview(page)).series;

  expect(await visit(page, `/p/${project}?range=24h`)).toBe(200);
  const bars = page.getByRole("list", { name: "Outcomes per hour" }).getByRole("listitem");
  await expect(bars).toHaveCount(series.length);
  const last = bars.last();
  const delivered = series.at(-1)!.delivered;
  await expect(last).toHaveAttribute("aria-label", new RegExp(`: Delivered ${delivered}, Bounced \\d+, Complained \\d+, Rejected \\d+$`));
  await expect(last.locator('[data-testid="chart-bar-segment"][data-series="delivered"]')).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Legend" })).toContainText("Delivered");

  // Hover: the tooltip names the bucket and each series.
  await last.locator('[data-series="delivered"]').hover();
  await expect(tooltip(page)).toBeVisible();
  await expect(tooltip(page)).toContainText(`Delivered${delivered}`);
  await expect(tooltip(page)).toContainText("Rejected");
  await page.mouse.move(0, 0);
  await expect(tooltip(page)).toHaveCount(0);

  // Keyboard: one tab stop (the newest bar), arrows and Home/End move, Escape hides the tooltip.
  await last.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expectFocused(bars, series.length - 1);
  await expect(tooltip(page)).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expectFocused(bars, series.length - 2);
  const label = await focusedLabel(page);
  const title = label.slice(0, label.indexOf(": Delivered"));
  await expect(tooltip(page)).toContainText(title);
  await page.keyboard.press("Home");
  await expectFocused(bars, 0);
  await page.keyboard.press("End");
  await expectFocused(bars, series.length - 1);
  await page.keyboard.press("Escape");
  await expect(tooltip(page)).toHaveCount(0);
  await page.keyboard.press("ArrowLeft");
  await expect(tooltip(page)).toBeVisible();
  await screenshotVariants(page, "chart-overview-focused");
});

test("the deliverability charts: a bar per provider against the warning and the limit, with a tooltip", async ({ page }) => {
  const deliverability = async () => (await api(page, "GET", `/api/p/${project}/deliverability?range=24h`)).json as Deliverability;
  const gmailDelivered = async () => (await deliverability()).providers.find((p) => p.provider === "gmail")?.delivered ?? 0;
  const before = await gmailDelivered();
  const u = unique();
  await send({ to: `delivered+${u}@gmail.com`, subject: `Chart ${u}` });
  await expect.poll(gmailDelivered, { timeout: budget(30_000) }).toBeGreaterThan(before);
  const data = await deliverability();
  expect(await visit(page, `/p/${project}/deliverability?range=24h`)).toBe(200);
  const bounce = page.getByRole("list", { name: "Bounce rate by provider, one bar per provider" }).getByRole("listitem");
  await expect(bounce).toHaveCount(data.providers.length);
  await expect(page.getByRole("list", { name: "Complaint rate by provider, one bar per provider" }).getByRole("listitem")).toHaveCount(data.providers.length);
  const gmail = bounce.and(page.locator('[aria-label^="Gmail:"]'));
  await expect(gmail).toHaveAttribute("aria-label", /^Gmail: Bounce rate \d+\.\d+%\. (Within the thresholds|Above the warning level|Above the limit|Not judged: under [\d,]+ messages)$/);
  await expect(page.locator("svg text", { hasText: "limit 4%" })).toHaveCount(1);
  await expect(page.locator("svg text", { hasText: "warning 2%" })).toHaveCount(1);

  await gmail.hover();
  await expect(tooltip(page)).toContainText("Gmail");
  await expect(tooltip(page)).toContainText(/Bounce rate\d+\.\d+%/);
  await screenshotVariants(page, "chart-deliverability-hover");
});
