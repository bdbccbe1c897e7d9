import type { Page } from "@playwright/test";
import { screenshot, visit } from "../fixtures";
import { authFile, run } from "../support/run";
import { revealSecret, secretDialog } from "../support/secret-dialog";
import { expect, project, projectPath, service, target, test, unique } from "./journey";

/** One-time secrets: an API key and a webhook signing secret, shown once; a webhook deleted. */
test.use({ storageState: authFile("admin") });

async function closeSecret(dialog: ReturnType<Page["getByRole"]>) {
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.getByRole("button", { name: "I have stored it, close" }).click();
  await expect(dialog).toBeHidden();
}

test("an API key's secret is revealed once and works against the service", async ({ page }) => {
  const name = `Journey key ${unique()}`;
  await visit(page, projectPath(project, "api-keys"));
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByText("This project only").click();
  await form.getByRole("checkbox", { name: "templates:read" }).click();
  await form.getByRole("button", { name: "Create key" }).click();
  const dialog = await secretDialog(page, `API key “${name}”`);
  const secret = await revealSecret(dialog, "API key");
  expect(secret.length).toBeGreaterThan(16);
  await closeSecret(dialog);

  // A project key: the project is implied, no header.
  const used = await fetch(`${run.serviceURL}/v1/templates`, { headers: { Authorization: `Bearer ${secret}` } });
  expect(used.status, "the new key authenticates at the service").toBe(200);
  await expect(page.getByRole("region", { name: "API keys" }).getByText(name)).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.reload();
  expect(await page.content()).not.toContain(secret);
});

test("a webhook is created with its signing secret shown once, then deleted", async ({ page }) => {
  const url = `http://127.0.0.1:9/journey-hook-${unique()}`;
  await visit(page, projectPath(project, "webhooks"));
  await page.getByRole("button", { name: "Add webhook" }).first().click();
  const form = page.getByRole("dialog", { name: "Add a webhook" });
  await form.getByLabel("Endpoint URL").fill(url);
  await form.getByRole("checkbox", { name: "All inbound events" }).click();
  await form.getByRole("button", { name: "Add webhook" }).click();
  const dialog = await secretDialog(page, "Webhook signing secret");
  const secret = await revealSecret(dialog, "Signing secret");
  expect(secret.length).toBeGreaterThan(16);
  await closeSecret(dialog);

  const row = page.getByRole("row").filter({ hasText: url });
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  const listed = await service<{ data: { url: string }[] }>("GET", "/v1/webhooks?limit=100");
  expect(listed.json.data.map((w) => w.url), "the service holds it").toContain(url);
  expect(listed.text).not.toContain(secret);

  await row.getByRole("button", { name: `Delete webhook ${url}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete the webhook to ${url}?` });
  await confirm.getByRole("button", { name: "Delete webhook" }).click();
  // While the confirmation is open the table is hidden from the accessibility tree, so the
  // row counts as gone only once the dialog has closed.
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Webhook deleted")).toBeVisible();
  await expect(row).toBeHidden();
  const after = await service<{ data: { url: string }[] }>("GET", "/v1/webhooks?limit=100");
  expect(after.json.data.map((w) => w.url), "the service no longer lists it").not.toContain(url);
  await screenshot(page, `journey-${target.name}-webhooks`);
});
