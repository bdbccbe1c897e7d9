import { expect, test } from "./fixtures";
import { budget } from "./support/budget";
import { painted, screenshot } from "./fixtures";
import { authFile } from "./support/run";
import { messagesPath, pageAs, send, unique, visitChecked, waitForRows } from "./support-helpers";

/**
 * Issue 28: the search language in the Messages box and in Ctrl+K — typed queries, the URL,
 * a pasted link, the controls and the query in step both ways, an unknown term explained, the
 * help popover.
 */
test.use({ storageState: authFile("support") });

const rows = (page: import("@playwright/test").Page) => page.locator("tbody tr[data-message-id]");

test("typed queries find exactly their messages, stay in the URL and in step with the controls", async ({ page, browser }) => {
  // Two waits on the event stream (waitForRows, each up to budget(90_000)): in one full run, in a lane that had just sent a 245-row batch, the first took 55 s.
  test.setTimeout(budget(240_000));
  const word = unique();
  const delivered = await send({ to: "delivered@example.com", subject: `Parcel ${word} shipped` });
  const bounced = await send({ to: `bounce+${word}@example.com`, subject: `Parcel ${word} returned` });
  // Both indexed, and the bounce folded, before the screen is searched.
  await waitForRows(page, `q=${encodeURIComponent(`"${word}" status:bounced`)}`, 1);
  await waitForRows(page, `q=${encodeURIComponent(`"${word}"`)}`, 2);

  const box = page.getByLabel("Search messages");
  const status = page.getByRole("combobox", { name: "Status" });

  // Typing a status term sets the Status control.
  await box.fill(`${word} status:bounced`);
  await page.waitForURL(/status%3Abounced/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator(`tr[data-message-id="${bounced}"]`)).toBeVisible();
  await expect(status).toContainText("Bounced");

  // A negated term.
  await box.fill(`${word} -status:bounced`);
  await page.waitForURL(/-status%3Abounced/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator(`tr[data-message-id="${delivered}"]`)).toBeVisible();
  await expect(status).toContainText("Any status");

  // A control writes its term into the box and the URL.
  await page.getByRole("combobox", { name: "Direction" }).click();
  await page.getByRole("option", { name: "Inbound" }).click();
  await page.waitForURL(/direction%3Ainbound/);
  await expect(box).toHaveValue(`${word} -status:bounced direction:inbound`);
  await expect(page.getByText("No message matches this search")).toBeVisible();
  await page.getByRole("combobox", { name: "Direction" }).click();
  await page.getByRole("option", { name: "Both directions" }).click();
  await expect(box).toHaveValue(`${word} -status:bounced`);
  await expect(rows(page)).toHaveCount(1);

  // A phrase, and a term the dashboard does not know: explained, the rest still searched.
  await box.fill(`"parcel ${word}" colour:red`);
  await page.waitForURL(/colour%3Ared/);
  await expect(rows(page)).toHaveCount(2);
  const problems = page.getByTestId("search-problems");
  await expect(problems).toHaveAttribute("aria-live", "polite");
  await expect(problems).toContainText("colour:red was left out: colour: is not a search term");
  await page.setViewportSize({ width: 1280, height: 800 });
  await painted(page);
  await screenshot(page, "support-search-language-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  await screenshot(page, "support-search-language-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A pasted link opens the same results, box and explanation.
  const shared = page.url();
  const { page: other, close } = await pageAs(browser, "support");
  await visitChecked(other, shared);
  await expect(rows(other)).toHaveCount(2);
  await expect(other.getByLabel("Search messages")).toHaveValue(`"parcel ${word}" colour:red`);
  await expect(other.getByTestId("search-problems")).toContainText("colour:red");
  await close();
});

test("the help popover lists the terms, from the keyboard too", async ({ page }) => {
  await visitChecked(page, messagesPath);
  const help = page.getByRole("button", { name: "Search terms help" });
  await help.focus();
  await page.keyboard.press("Enter");
  const popover = page.getByRole("dialog", { name: "Search terms" });
  await expect(popover).toBeVisible();
  await expect(popover.locator("dt")).toContainText(["to:, from:, cc:", "tag:", "status:", "has:attachment", "after:, before:", "-term"]);
  await screenshot(page, "support-search-help-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  await screenshot(page, "support-search-help-390");
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await expect(help).toBeFocused();
});

test("Ctrl+K searches messages with the language", async ({ page }) => {
  const word = unique();
  const bounced = await send({ to: `bounce+${word}@example.com`, subject: `Palette ${word}` });
  await waitForRows(page, `q=${encodeURIComponent(`${word} status:bounced`)}`, 1);
  await visitChecked(page, messagesPath);
  await page.keyboard.press("Control+k");
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.type(`${word} status:bounced`);
  await expect(page.getByRole("option", { name: /Search messages for/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.waitForURL(/messages\?q=/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator(`tr[data-message-id="${bounced}"]`)).toBeVisible();
  await expect(page.getByLabel("Search messages")).toHaveValue(`${word} status:bounced`);
});
