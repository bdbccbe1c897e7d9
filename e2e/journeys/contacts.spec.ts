import { screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import { escapeRegExp, expect, project, projectPath, service, target, test, unique } from "./journey";

/** A marketer creates a contact who has opted out, finds it again, and resubscribes it. */
test.use({ storageState: authFile("marketer") });

test("a contact is created, looked up and resubscribed", async ({ page }) => {
  const email = `journey-contact+${unique()}@example.org`;
  await visit(page, projectPath(project, "contacts"));
  await page.getByRole("button", { name: "Create contact" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("First name").fill("Grace");
  await dialog.getByLabel("Subscribed").uncheck();
  await dialog.getByRole("button", { name: "Create contact" }).click();
  await page.waitForURL(/\/contacts\/[^/]+$/);
  const id = decodeURIComponent(page.url().split("/").pop()!);
  await expect(page.getByTestId("subscription-state")).toContainText("Unsubscribed");

  await visit(page, projectPath(project, "contacts"));
  await page.getByLabel("Look up a contact").fill(id);
  await page.getByRole("button", { name: "Look up" }).click();
  await page.waitForURL(new RegExp(`/contacts/${escapeRegExp(encodeURIComponent(id))}$`));
  await expect(page.getByText(email).first()).toBeVisible();

  await page.getByRole("button", { name: "Resubscribe" }).click();
  const confirm = page.getByRole("dialog", { name: `Resubscribe ${email}?` });
  await confirm.getByLabel("Reason").fill("Asked to receive mail again (journey)");
  await confirm.getByRole("button", { name: "Resubscribe" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("subscription-state")).not.toContainText("Unsubscribed");
  await expect(page.getByTestId("subscription-state")).toContainText("Subscribed");
  const truth = await service<{ subscribed: boolean }>("GET", `/v1/contacts/${encodeURIComponent(id)}`);
  expect(truth.json.subscribed, "the service has it subscribed").toBe(true);
  await screenshot(page, `journey-${target.name}-contact`);
});
