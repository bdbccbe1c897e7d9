import { randomBytes } from "node:crypto";
import { screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import { expect, project, projectPath, service, target, test } from "./journey";

/** Support reads who is blocked and blocks one more address. */
test.use({ storageState: authFile("support") });

type Suppressions = { data: { email: string; reason: string }[]; nextCursor: string | null };

test("suppressions are listed as the service holds them, and one added from the screen is listed too", async ({ page }) => {
  const held = await service<Suppressions>("GET", "/v1/suppressions?limit=100");
  expect(held.json.data.length, "the service holds suppressions to show").toBeGreaterThan(0);
  await visit(page, projectPath(project, "suppressions"));
  const table = page.getByRole("region", { name: "Suppressions" });
  for (const s of held.json.data.slice(0, 5)) await expect(table.getByRole("row").filter({ hasText: s.email })).toContainText(s.reason);

  const email = `journey-block-${randomBytes(3).toString("hex")}@example.org`;
  await page.getByRole("button", { name: "Add suppression" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Suppress an address" });
  await dialog.getByLabel("Email address").fill(email);
  await dialog.getByRole("button", { name: "Suppress address" }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole("row").filter({ hasText: email })).toBeVisible();
  const after = await service<Suppressions>("GET", "/v1/suppressions?limit=100");
  expect(after.json.data.map((s) => s.email), "the service holds it").toContain(email);
  await screenshot(page, `journey-${target.name}-suppressions`);
});
