import { signedIn, visit } from "../fixtures";
import { authFile, run } from "../support/run";
import { escapeRegExp, expect, otherProject, project, projectPath, test } from "./journey";

/** Signing in and moving between projects, against whichever service this run talks to. */

test("sign in lands on a project of the service", async ({ page }) => {
  await signedIn(page, run.admin.email, run.admin.password);
  await expect(page).toHaveURL(new RegExp(`/p/(${run.projects.map(escapeRegExp).join("|")})(/|$)`));
  await expect(page.getByRole("combobox", { name: /switch project/i })).toBeVisible();
});

test.describe("signed in", () => {
  test.use({ storageState: authFile("admin") });

  test("switching project keeps the screen", async ({ page }) => {
    expect(otherProject, "the service has two projects").not.toBe(project);
    expect(await visit(page, projectPath(project, "messages"))).toBe(200);
    await page.getByRole("combobox", { name: /switch project/i }).click();
    await page.getByRole("option", { name: otherProject }).click();
    await expect(page).toHaveURL(new RegExp(`${escapeRegExp(projectPath(otherProject, "messages"))}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
