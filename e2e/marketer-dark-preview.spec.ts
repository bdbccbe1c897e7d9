import type { FrameLocator, Locator, Page } from "@playwright/test";
import { clickWhenSettled, expect, expectNoSeriousA11yViolations, painted, screenshot, settle, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { project, unique } from "./helpers/marketer";
import { budget } from "./support/budget";

/**
 * Issue 30, the dark-mode preview: the Light / Dark switch on the template screen, in compose's
 * review and on a message's body. The frame runs no script; dark mode comes from the iframe
 * element's `color-scheme`, which `prefers-color-scheme` follows inside the frame. Playwright
 * emulates a light scheme by default, and that emulation overrides what a page says, so these
 * tests turn it off (`colorScheme: null`): the browser then behaves as a user's does.
 */
test.use({ storageState: authFile("marketer"), colorScheme: null });

const PHONE = { width: 390, height: 844 };

/** An email with dark styles of its own. */
const OWN_DARK = `<html><head><meta name="color-scheme" content="light dark"><style>
.card { background: #ffffff; color: #222222; padding: 24px }
@media (prefers-color-scheme: dark) { .card { background: #111827 !important; color: #f9fafb !important } }
</style></head><body><div class="card"><h1>Own dark styles</h1><p>Shown with them in dark mode.</p></div></body></html>`;
/** An email without: #333 text on the page's own background, a pale grey panel, a brand button. */
const NO_DARK = `<table width="100%"><tr><td style="color:#333333;padding:16px"><h1 style="color:#000000">No dark styles</h1>
<p class="panel" style="background-color:#f4f4f4;padding:12px">Your order has shipped.</p>
<p style="background:#2563eb;color:#ffffff;padding:8px">Track it</p></td></tr></table>`;

const radio = (scope: Page | Locator, name: RegExp) => scope.getByRole("radio", { name });
/** Picks a scheme as a user does, on its label (the radio itself is visually hidden inside it). */
const choose = (scope: Page | Locator, name: RegExp) => radio(scope, name).locator("xpath=..").click();
const LIGHT = /^Light$/;
const DARK = /^Dark$/;
const INVERTED = /^Dark, inverted \(approximation, like Gmail apps\)$/;
const PARTIAL = /^Dark, partial \(approximation, like Outlook\.com\)$/;

const styleOf = (frame: FrameLocator, selector: string, property: "backgroundColor" | "filter" | "color") =>
  frame.locator(selector).first().evaluate((e, p) => getComputedStyle(e)[p as "color"], property);
/** Relative brightness 0–255 of a computed `rgb(…)`. */
const brightness = (rgb: string) => {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number) as [number, number, number];
  return (r * 299 + g * 587 + b * 114) / 1000;
};

async function phoneShot(page: Page, name: string) {
  const size = page.viewportSize()!;
  await page.setViewportSize(PHONE);
  await painted(page);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(size);
}

test("the template screen shows an email's own dark styles in Dark, and the approximations only for an email without", async ({ page }) => {
  await visit(page, `/p/${project}/templates`);
  await page.getByRole("link", { name: "Welcome" }).click();
  await page.waitForURL(/\/templates\/[^/]+$/);
  await page.getByLabel("Draft mode").click();
  await page.getByLabel("HTML").fill(OWN_DARK);
  const desktop = page.frameLocator('iframe[title="Desktop preview"]');
  const mobile = page.frameLocator('iframe[title="Mobile preview"]');
  await expect(desktop.locator("h1")).toHaveText("Own dark styles");
  await expect(radio(page, LIGHT)).toBeChecked();
  expect(await styleOf(desktop, ".card", "backgroundColor")).toBe("rgb(255, 255, 255)");

  await choose(page, DARK);
  await expect(page.locator('iframe[title="Desktop preview"]')).toHaveAttribute("data-scheme", "dark");
  // The email's own @media (prefers-color-scheme: dark) applies inside the sandboxed frame, at both widths.
  await expect.poll(() => styleOf(desktop, ".card", "backgroundColor")).toBe("rgb(17, 24, 39)");
  await expect.poll(() => styleOf(mobile, ".card", "backgroundColor")).toBe("rgb(17, 24, 39)");
  expect(await styleOf(desktop, ".card", "color")).toBe("rgb(249, 250, 251)");
  await settle(page);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "marketer-dark-preview-template-own");
  await phoneShot(page, "marketer-dark-preview-template-own");

  // An approximation is not applied to an email with dark styles of its own, and the switch says so.
  await choose(page, INVERTED);
  await expect(page.getByTestId("scheme-note").first()).toContainText("has dark styles of its own");
  await expect(page.locator('iframe[title="Desktop preview"]')).toHaveAttribute("data-scheme", "dark");

  // Without dark styles: inverted as Gmail's apps do, with the pre-send note about dark text.
  await page.getByLabel("HTML").fill(NO_DARK);
  await expect(desktop.locator("h1")).toHaveText("No dark styles");
  await expect(page.locator('iframe[title="Desktop preview"]')).toHaveAttribute("data-scheme", "inverted");
  await expect(page.getByTestId("scheme-note").first()).toContainText("Gmail's apps invert");
  expect(await styleOf(desktop, "html", "filter")).toContain("invert(1)");
  const checks = page.getByTestId("presend-checks");
  await expect(checks.locator('[data-testid="finding"][data-rule="dark-mode-text"]')).toContainText("Dark text with no background behind it");
  await screenshot(page, "marketer-dark-preview-template-inverted");
  await phoneShot(page, "marketer-dark-preview-template-inverted");

  // The switch is a radio group: the arrow keys move the choice; the page remembers it.
  await radio(page, INVERTED).focus();
  await page.keyboard.press("ArrowRight");
  await expect(radio(page, PARTIAL)).toBeChecked();
  await expect(page.locator('iframe[title="Desktop preview"]')).toHaveAttribute("data-scheme", "partial");
  // Outlook.com's partial change: the pale panel turns dark, the brand button keeps its blue.
  await expect.poll(async () => brightness(await styleOf(desktop, ".panel", "backgroundColor"))).toBeLessThan(60);
  expect(await styleOf(desktop, 'p[style*="2563eb"]', "backgroundColor")).toBe("rgb(37, 99, 235)");
  await screenshot(page, "marketer-dark-preview-template-partial");
  await page.reload();
  await expect(radio(page, PARTIAL)).toBeChecked();
});

test("compose's review and the sent message's body have the switch too", async ({ page }) => {
  test.setTimeout(budget(90_000));
  const u = unique();
  await visit(page, `/p/${project}/compose`);
  await page.locator("#to").fill(`delivered+${u}@example.com`);
  await page.locator("#to").press("Enter");
  await page.getByLabel("Subject").fill(`Dark preview ${u}`);
  await page.getByLabel("HTML").fill(OWN_DARK);
  await page.getByLabel("Plain text").fill("Own dark styles.");
  await page.getByRole("button", { name: "Review and send to 1 recipient" }).click();
  const dialog = page.getByRole("dialog");
  const review = page.frameLocator('iframe[title="Preview of the message"]');
  await expect(review.locator("h1")).toHaveText("Own dark styles");
  await choose(dialog, DARK);
  await expect.poll(() => styleOf(review, ".card", "backgroundColor")).toBe("rgb(17, 24, 39)");
  await screenshot(page, "marketer-dark-preview-review");
  await phoneShot(page, "marketer-dark-preview-review");
  await clickWhenSettled(page, dialog.getByTestId("confirm-send"));

  await page.waitForURL(/\/messages\/[^/]+$/);
  const body = page.frameLocator('iframe[title^="Email body"]');
  // The choice made in the review is remembered on the message's page.
  await expect(radio(page, DARK)).toBeChecked({ timeout: budget(20_000) });
  await expect.poll(() => styleOf(body, ".card", "backgroundColor"), { timeout: budget(20_000) }).toBe("rgb(17, 24, 39)");
  await choose(page, LIGHT);
  await expect.poll(() => styleOf(body, ".card", "backgroundColor")).toBe("rgb(255, 255, 255)");
  await choose(page, DARK);
  await expect.poll(() => styleOf(body, ".card", "backgroundColor")).toBe("rgb(17, 24, 39)");
  // The "Message sent" toast closes itself 4 s after the send; checked while it fades out, its
  // half-transparent text fails contrast (a full run failed so: `div[data-description]`).
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await settle(page);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "marketer-dark-preview-message");
  await phoneShot(page, "marketer-dark-preview-message");
});
