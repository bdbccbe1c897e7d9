import { readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, screenshot, settle, test, visit } from "./fixtures";
import { animationsDone } from "./support/axe";
import { authFile, SCREENSHOTS } from "./support/run";
import { project } from "./helpers/marketer";

test.use({ storageState: authFile("marketer") });

const problems = readFileSync(new URL("../lib/presend/fixtures/problems.html", import.meta.url), "utf8");
/** Line and column of `needle` in the fixture, as the panel prints them. */
function placeOf(needle: string): string {
  const lines = problems.split("\n");
  const line = lines.findIndex((l) => l.includes(needle));
  return `Line ${line + 1}, column ${lines[line]!.indexOf(needle) + 1}`;
}
/** The fixture grown past Gmail's 102 KB clip with ordinary paragraphs. */
const large = problems.replace("</body>", `${"<p>Our spring collection is here, with new colours and fabrics for every room of the house.</p>\n".repeat(1200)}</body>`);

/** The panel alone and whole: the screens scroll inside their own containers, so the window is made tall enough first. */
async function panelShot(page: Page, panel: Locator, name: string) {
  const size = page.viewportSize()!;
  const { height } = (await panel.boundingBox())!;
  await page.setViewportSize({ width: size.width, height: Math.ceil(height * 1.3) + 400 });
  await panel.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize(size);
}

const finding = (panel: Locator, rule: string) => panel.locator(`[data-testid="finding"][data-rule="${rule}"]`);

async function expectSpamPart(panel: Locator) {
  // .ci/run starts spamd and exports SPAMD_HOST to the dashboard; without it the panel says how to enable it.
  if (process.env.SPAMD_HOST) {
    await expect(panel.getByTestId("spam-score")).toContainText(/of 5\.0/);
    await expect(panel.getByTestId("spam-rule").first()).toBeVisible();
  } else {
    await expect(panel.getByTestId("spam-unavailable")).toContainText("To enable it");
  }
}

async function openNotes(panel: Locator) {
  for (const summary of await panel.locator("details > summary").all()) {
    if (!(await summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open))) await summary.click();
  }
}

async function templateWithProblems(page: Page) {
  await visit(page, `/p/${project}/templates`);
  await page.getByRole("link", { name: "Welcome" }).click();
  await page.waitForURL(/\/templates\/[^/]+$/);
  await page.getByLabel("Draft mode").click();
  await page.getByLabel("HTML").fill(large);
}

test("the template screen lists client-support, link, image and size findings at their places, checks links and shows the spam part", async ({ page }) => {
  await templateWithProblems(page);
  const panel = page.getByTestId("presend-checks");
  await expect(finding(panel, "gmail-clip")).toContainText("Gmail clips messages over 102 KB");
  await expect(finding(panel, "client:css-display-flex")).toContainText("Outlook");
  await expect(finding(panel, "client:css-display-flex")).toContainText(placeOf("display: flex"));
  await expect(finding(panel, "client:html-form")).toContainText(placeOf('<form action="https://acme.test/search">'));
  await expect(finding(panel, "link-insecure")).toContainText(placeOf('<a href="http://acme.test/sale">'));
  await expect(finding(panel, "link-text-domain")).toContainText("shows acme.test but the link goes to login.evil.test");
  await expect(finding(panel, "link-javascript")).toHaveAttribute("data-severity", "error");
  await expect(finding(panel, "image-alt")).toContainText(placeOf('<img src="http://cdn.acme.test/banner.png">'));
  await expect(finding(panel, "image-size")).toBeVisible();
  await expect(panel.getByTestId("link-row")).toHaveCount(3);
  await expectSpamPart(panel);

  await panel.getByRole("button", { name: "Check links" }).click();
  // Nothing under .test resolves: each web link is reported as unreachable, from the server.
  await expect(panel.getByTestId("link-outcome")).toHaveCount(2);
  await expect(panel.getByTestId("link-outcome").first()).toHaveAttribute("data-ok", "false");
  await expect(panel.getByTestId("link-outcome").first()).toContainText("does not resolve");

  await openNotes(panel);
  await settle(page);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "presend-template");
  await panelShot(page, panel, "presend-template-panel");
});

test("compose shows the same checks in the review step, before the send button, without blocking it", async ({ page }) => {
  await visit(page, `/p/${project}/compose`);
  await page.locator("#to").fill("ada@example.com");
  await page.locator("#to").press("Enter");
  await page.getByLabel("Subject").fill("Spring sale");
  await page.getByLabel("HTML").fill(problems);
  await page.getByLabel("Plain text").fill("Sale.");
  await page.getByRole("button", { name: "Review and send to 1 recipient" }).click();
  const dialog = page.getByRole("dialog");
  const panel = dialog.getByTestId("presend-checks");
  await expect(panel.getByRole("heading", { name: "Checks before sending" })).toBeVisible();
  await expect(finding(panel, "client:css-display-flex")).toBeVisible();
  await expect(finding(panel, "link-insecure")).toContainText(placeOf('<a href="http://acme.test/sale">'));
  await expect(finding(panel, "image-alt")).toBeVisible();
  await expect(finding(panel, "link-javascript")).toHaveAttribute("data-severity", "error");
  await expectSpamPart(panel);
  // The findings come before the confirmation, and errors inform rather than block.
  const panelBox = (await panel.boundingBox())!;
  const sendBox = (await dialog.getByTestId("confirm-send").boundingBox())!;
  expect(panelBox.y).toBeLessThan(sendBox.y);
  await expect(dialog.getByTestId("confirm-send")).toBeEnabled();
  await settle(page);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, "presend-compose-review");
  await panelShot(page, panel, "presend-compose-panel");
  // The badges and tones keep their contrast in the dark theme too.
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousA11yViolations(page);
  await panelShot(page, panel, "presend-compose-panel-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await dialog.getByRole("button", { name: "Back to editing" }).click();
  await expect(dialog).toHaveCount(0);
});

/**
 * Opens compose's review of a message with `html`, its checks' answer held until the returned
 * `release` is called: the dialog is open, showing the checks' placeholder.
 */
async function reviewWithChecksHeld(page: Page, html: string): Promise<{ dialog: Locator; release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/p/${project}/checks`, async (route) => {
    await held;
    await route.continue();
  });
  await visit(page, `/p/${project}/compose`);
  await page.locator("#to").fill("ada@example.com");
  await page.locator("#to").press("Enter");
  await page.getByLabel("Subject").fill("Spring sale");
  await page.getByLabel("HTML").fill(html);
  await page.getByRole("button", { name: "Review and send to 1 recipient" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("checks-skeleton")).toBeVisible();
  return { dialog, release };
}

test("the review's buttons stay where they are while its checks arrive", async ({ page }) => {
  // The checks' answer is held until the dialog has been measured without them.
  const { dialog, release } = await reviewWithChecksHeld(page, problems);
  const send = dialog.getByTestId("confirm-send");
  await animationsDone(page);
  const before = await send.boundingBox();
  release();
  await expect(finding(dialog, "link-insecure")).toBeVisible();
  await settle(page);
  await animationsDone(page);
  expect(await send.boundingBox(), "the send button, once the checks have arrived").toEqual(before);
  expect(before!.y + before!.height, "the send button is in view").toBeLessThanOrEqual(page.viewportSize()!.height);
});

test("with less motion asked for, the checks' placeholder holds still rather than flickering", async ({ page }) => {
  // The animations that never end, as the page runs them now.
  const endless = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getComputedTiming().iterations === Infinity).length);
  const { dialog, release } = await reviewWithChecksHeld(page, "<p>Everything is 20% off until Sunday.</p>");
  try {
    expect(await endless(), "the placeholder pulses by default").toBeGreaterThan(0);
    // An endless animation squeezed to 0.01 ms a cycle would show a random moment of it at every frame.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await expect.poll(endless, { message: "endless animations with less motion asked for" }).toBe(0);
    await expect(dialog.getByTestId("checks-skeleton")).toBeVisible();
  } finally {
    release();
  }
});

test("a batch is checked before it starts, including its unsubscribe link", async ({ page }) => {
  await visit(page, `/p/${project}/batches`);
  await page.getByLabel("Write the content (the same for everyone)").check();
  await page.getByLabel("Subject").fill("Spring sale");
  await page.getByLabel("HTML").fill("<p>Everything is 20% off until Sunday.</p>");
  await page.getByLabel("Plain text").fill("Everything is 20% off until Sunday.");
  const panel = page.getByTestId("presend-checks");
  await expect(finding(panel, "unsubscribe-missing")).toHaveAttribute("data-severity", "error");
  await page.getByLabel("HTML").fill('<p>Everything is 20% off until Sunday.</p><p><a href="https://acme.test/unsubscribe">Unsubscribe</a></p>');
  await expect(finding(panel, "list-unsubscribe-header")).toBeVisible();
  await expect(finding(panel, "unsubscribe-missing")).toHaveCount(0);
  await panelShot(page, panel, "presend-batch-panel");
});
