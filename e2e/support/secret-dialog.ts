import { expect, type Locator, type Page } from "@playwright/test";
import { run } from "./run";

/**
 * The one-time reveal after creating a key or a webhook: the dialog named `name`, after the
 * step-up the dashboard may ask first (the admin's sign-in older than REAUTH_MAX_AGE_S),
 * answered with the admin's password.
 */
export async function secretDialogAfterStepUp(page: Page, name: string): Promise<Locator> {
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
