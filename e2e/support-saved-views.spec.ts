import { expect, painted, screenshot, test } from "./fixtures";
import { authFile } from "./support/run";
import { messagesPath, pageAs, send, unique, visitChecked, waitForRows } from "./support-helpers";

/**
 * Issue 28, saved views: save the search in the URL under a name, reopen it from the Views
 * menu and from Ctrl+K (same URL, same rows), share it — from its search spelt another way —
 * and see it as another user, rename it, delete it. Desktop and phone screenshots of the menu
 * and the save dialog.
 */
test.use({ storageState: authFile("support") });

const rows = (page: import("@playwright/test").Page) => page.locator("tbody tr[data-message-id]");
const viewsButton = (page: import("@playwright/test").Page) => page.getByRole("button", { name: "Views" });

test("a search saved, reopened from the menu and Ctrl+K, shared, renamed and deleted", async ({ page, browser }) => {
  const word = unique();
  const name = `Bounces ${word}`;
  const bounced = await send({ to: `bounce+${word}@example.com`, subject: `Saved ${word} returned` });
  await send({ to: "delivered@example.com", subject: `Saved ${word} shipped` });
  const search = `q=${encodeURIComponent(`${word} status:bounced`)}`;
  await waitForRows(page, search, 1);
  const savedUrl = page.url();
  /** The same search, however its link encodes it (`+` or `%20` for a space, the order of the parameters). */
  const sameSearch = (url: URL) => {
    const asked = new URL(savedUrl).searchParams;
    return [...asked.keys()].every((k) => url.searchParams.get(k) === asked.get(k)) && [...url.searchParams.keys()].every((k) => asked.has(k));
  };

  // Save the current search.
  await viewsButton(page).click();
  await page.getByRole("menuitem", { name: "Save current search…" }).click();
  const dialog = page.getByRole("dialog", { name: "Save current search" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Name").fill(name);
  await painted(page);
  await screenshot(page, "support-saved-views-save-1280");
  await dialog.getByRole("button", { name: "Save view" }).click();
  await expect(dialog).toBeHidden();

  // Reopen it from the menu, from elsewhere.
  await visitChecked(page, messagesPath);
  await expect(rows(page).first()).toBeVisible();
  await viewsButton(page).click();
  await expect(page.getByRole("menuitem", { name })).toBeVisible();
  await painted(page);
  await screenshot(page, "support-saved-views-menu-1280");
  await page.getByRole("menuitem", { name }).click();
  await page.waitForURL(sameSearch);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator(`tr[data-message-id="${bounced}"]`)).toBeVisible();
  await expect(page.getByLabel("Search messages")).toHaveValue(`${word} status:bounced`);

  // And from Ctrl+K.
  await visitChecked(page, messagesPath);
  await page.keyboard.press("Control+k");
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.type(name);
  await expect(page.getByRole("option", { name })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.waitForURL(sameSearch);
  await expect(rows(page)).toHaveCount(1);

  // Private: another user does not see it.
  const { page: other, close } = await pageAs(browser, "marketer");
  await visitChecked(other, messagesPath);
  await viewsButton(other).click();
  await expect(other.getByRole("menuitem", { name: "Save current search…" })).toBeVisible();
  await expect(other.getByRole("menuitem", { name })).toHaveCount(0);
  await other.keyboard.press("Escape");

  // The open search is the view however its URL spells it (terms in another order, more
  // spaces, a field name's case, %20): the menu still offers to change it, here and below.
  await waitForRows(page, `q=${encodeURIComponent(`  Status:bounced   ${word} `)}`, 1);
  await viewsButton(page).click();
  await expect(page.getByText(`This view: ${name}`)).toBeVisible();
  await page.keyboard.press("Escape");

  // Shared: now they do, and it opens the same search for them.
  await viewsButton(page).click();
  await page.getByRole("menuitem", { name: "Share with the project" }).click();
  await expect(page.getByText("View shared")).toBeVisible();
  await other.reload();
  await viewsButton(other).click();
  await expect(other.getByRole("menuitem", { name })).toBeVisible();
  // Not theirs to change.
  await expect(other.getByRole("menuitem", { name: "Rename…" })).toHaveCount(0);
  await other.getByRole("menuitem", { name }).click();
  await other.waitForURL(sameSearch);
  await expect(rows(other)).toHaveCount(1);
  await close();

  // Rename.
  const renamed = `Returned ${word}`;
  await viewsButton(page).click();
  await page.getByRole("menuitem", { name: "Rename…" }).click();
  const rename = page.getByRole("dialog", { name: /Rename view/ });
  await rename.getByLabel("Name").fill(renamed);
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(rename).toBeHidden();
  await viewsButton(page).click();
  await expect(page.getByRole("menuitem", { name: renamed })).toBeVisible();
  await expect(page.getByRole("menuitem", { name })).toHaveCount(0);

  // Phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  await screenshot(page, "support-saved-views-menu-390");
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete, confirmed.
  await viewsButton(page).click();
  await page.getByRole("menuitem", { name: "Delete…" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(renamed);
  await confirm.getByRole("button", { name: "Delete view" }).click();
  await expect(confirm).toBeHidden();
  await viewsButton(page).click();
  await expect(page.getByRole("menuitem", { name: renamed })).toHaveCount(0);
});
