import { screenshot, settle, visit } from "../fixtures";
import { authFile } from "../support/run";
import { expect, project, projectPath, target, test } from "./journey";

/** A marketer opens a stored template, finds its merge variables offered, fills them and sees the preview. */
test.use({ storageState: authFile("marketer") });

test("the template screen offers the template's merge variables and previews it", async ({ page }) => {
  const { name, fill, subject, section } = target.template;
  await visit(page, projectPath(project, "templates"));
  await page.getByRole("link", { name, exact: true }).click();
  await page.waitForURL(/\/templates\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByText("This template uses no merge variables")).toHaveCount(0);
  for (const variable of Object.keys(fill)) await expect(page.getByLabel(variable, { exact: true })).toBeVisible();
  if (section) await expect(page.locator("label").filter({ hasText: new RegExp(`^${section}\\b`) }).first()).toBeVisible();

  for (const [variable, value] of Object.entries(fill)) await page.getByLabel(variable, { exact: true }).fill(value);
  await expect(page.getByTestId("preview-subject")).toHaveText(subject);
  await expect(page.frameLocator('iframe[title="Desktop preview"]').locator("body")).toContainText(fill.firstName);
  await settle(page);
  await screenshot(page, `journey-${target.name}-template`);
});
