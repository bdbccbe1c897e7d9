import { expect, type Locator, type Page } from "@playwright/test";
import { run } from "./run";

/**
 * The one-time secret dialog after a create. The dashboard may ask for the password first
 * (the session is older than the limit); this answers it as the run's admin.
 */
export async function secretDialog(page: Page, name: string): Promise<Locator> {
  const reauth = page.getByRole("dialog", { name: "Confirm it's you" });
  const secret = page.getByRole("dialog", { name });
  await expect(reauth.or(secret)).toBeVisible();
  if (await reauth.isVisible()) {
    await reauth.getByLabel("Password").fill(run.admin.password);
    await reauth.getByRole("button", { name: "Confirm" }).click();
  }
  await expect(secret).toBeVisible();
  return secret;
}

/** Reads the secret out of the reveal dialog: masked first, shown on Reveal. */
export async function revealSecret(dialog: Locator, label: string): Promise<string> {
  const input = dialog.getByLabel(label, { exact: true });
  await expect(input).toHaveAttribute("type", "password");
  await dialog.getByRole("button", { name: "Reveal" }).click();
  await expect(input).toHaveAttribute("type", "text");
  return input.inputValue();
}
