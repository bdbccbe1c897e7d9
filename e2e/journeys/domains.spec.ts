import { randomBytes } from "node:crypto";
import { screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import { expect, project, projectPath, service, target, test } from "./journey";

/** An admin adds a sending domain and sees it verified wherever its status shows. */
test.use({ storageState: authFile("admin") });

test("a new domain shows Verified on its screen, in the list and under the Verified filter", async ({ page }) => {
  const name = target.newDomain(randomBytes(3).toString("hex"));
  await visit(page, projectPath(project, "domains"));
  await page.getByRole("button", { name: "Add domain" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add a domain" });
  await dialog.getByLabel("Domain").fill(name);
  await dialog.getByRole("button", { name: "Add domain" }).click();
  await page.waitForURL(new RegExp(`/domains/[^/]+$`));
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toContainText(name);

  // The service verifies it by itself; the screen notices without a reload.
  await expect(heading).toContainText("Verified", { timeout: target.domainVerifiesWithinMs });
  await expect(heading).not.toContainText("Pending");
  const truth = await service<{ data: { domain: string }[] }>("GET", "/v1/domains?status=verified&limit=100");
  expect(truth.json.data.map((d) => d.domain), "the service lists it as verified").toContain(name);
  await screenshot(page, `journey-${target.name}-domain`);

  await visit(page, projectPath(project, "domains"));
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name }) });
  await expect(row).toContainText("Verified");
  await expect(row).not.toContainText("Pending");

  await page.getByRole("combobox", { name: "Filter by status" }).click();
  await page.getByRole("option", { name: "Verified" }).click();
  await page.waitForURL(/status=verified/);
  await expect(page.getByRole("link", { name })).toBeVisible();
});
