import type { BrowserContext, CDPSession, Page } from "@playwright/test";
import { expect, phoneFits, screenshot, signedIn, signIn, test, visit } from "./fixtures";
import { ownDashboard } from "./helpers/restart";
import { budget } from "./support/budget";

/**
 * Passkeys as a second factor (issue 29), with Chromium's virtual authenticator (CDP WebAuthn):
 * two passkeys added on the Account screen (one named, one named after the authenticator), one
 * renamed, one removed after a step-up answered by a passkey, then sign-in with the password
 * and a passkey. WebAuthn takes a domain as its relying party, never an IP address, so this
 * runs on a dashboard of its own at `localhost` (its own data: no other spec's users touched);
 * REAUTH_MAX_AGE_S=1 makes the removal ask for the step-up.
 */
const SIGNED_OUT = { cookies: [], origins: [] };

async function authenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return authenticatorId;
}

async function addPasskey(page: Page, name: string) {
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a passkey" });
  await dialog.getByLabel("Name (optional)").fill(name);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /user menu|account/i }).first().click();
  await page.getByRole("menuitem", { name: /^sign out$/i }).click();
  await expect(page).toHaveURL(/\/login/);
}

test("add two passkeys, rename one, remove one after a passkey step-up, sign in with password and passkey", async ({ browser }) => {
  test.setTimeout(budget(120_000));
  const dash = await ownDashboard({ REAUTH_MAX_AGE_S: "1" }, { host: "localhost" });
  let context: BrowserContext | null = null;
  try {
    await dash.start();
    context = await browser.newContext({ baseURL: dash.baseURL, storageState: SIGNED_OUT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const first = await authenticator(cdp);
    await signedIn(page, dash.admin.email, dash.admin.password);
    expect(await visit(page, "/account")).toBe(200);
    const rows = page.getByTestId("passkey-row");

    // The first passkey, named by the user.
    await addPasskey(page, "Work laptop");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Work laptop");
    // A second authenticator for the second passkey (the first is excluded from making another for this account).
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first });
    await authenticator(cdp);
    await addPasskey(page, "");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("Passkey on this device");

    // Rename the second.
    await page.getByRole("button", { name: "Rename Passkey on this device" }).click();
    const rename = page.getByRole("dialog", { name: "Rename passkey" });
    await rename.getByLabel("Name").fill("Phone");
    await rename.getByRole("button", { name: "Rename" }).click();
    await expect(rename).toBeHidden();
    await expect(rows.nth(1)).toContainText("Phone");
    await phoneFits(page, "account-passkeys");

    // Remove the first: the sign-in is older than REAUTH_MAX_AGE_S, so the step-up comes, and the passkey answers it.
    await page.getByRole("button", { name: "Remove Work laptop" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove passkey" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(stepUp).toBeVisible();
    await screenshot(page, "account-passkey-step-up");
    await stepUp.getByRole("button", { name: "Use a passkey" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Phone");
    await expect(rows.first()).toContainText("last used");

    // Sign out; the password alone no longer signs in: the passkey does.
    await signOut(page);
    await signIn(page, dash.admin.email, dash.admin.password);
    const usePasskey = page.getByRole("button", { name: "Use a passkey" });
    await expect(usePasskey).toBeVisible();
    await expect(page.getByLabel("Authentication code")).toHaveCount(0);
    await phoneFits(page, "login-passkey");
    await usePasskey.click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    expect(await visit(page, "/account")).toBe(200);
    await expect(rows).toHaveCount(1);
  } finally {
    await context?.close();
    await dash.dispose();
  }
});
