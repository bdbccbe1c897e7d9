import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, phoneFits, screenshot, signedIn, signIn, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { createUser } from "./support/users";
import { budget } from "./support/budget";

/**
 * Two-factor sign-in (issue 29), as a user meets it: the Account screen turns the authenticator
 * app on (codes computed here with the same library, from the key the screen shows), the
 * recovery codes are shown once, and sign-in then asks for a code after the password.
 */
const SIGNED_OUT = { cookies: [], origins: [] };
const INVALID_CODE = "That code is not correct. Try a new code from your app, or a recovery code.";
const codeAt = (key: string, at: number) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: at });

test.use({ storageState: authFile("admin") });

async function signOut(page: Page) {
  await page.getByRole("button", { name: /user menu|account/i }).first().click();
  await page.getByRole("menuitem", { name: /^sign out$/i }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("turn on an authenticator app, sign in with a code, a wrong code refused, a recovery code good once", async ({ page, browser }) => {
  test.setTimeout(budget(120_000));
  await page.goto("/admin/users");
  const user = await createUser(page, "support", "twofa");
  const guest = await (await browser.newContext({ storageState: SIGNED_OUT })).newPage();
  await signedIn(guest, user.email, user.password);

  // The Account screen, from the user menu.
  await guest.getByRole("button", { name: /user menu|account/i }).first().click();
  await guest.getByRole("menuitem", { name: "Account and sign-in" }).click();
  await expect(guest).toHaveURL(/\/account$/);
  expect(await visit(guest, "/account")).toBe(200);
  await guest.getByRole("button", { name: "Set up authenticator app" }).click();
  const setup = guest.getByRole("dialog", { name: "Set up an authenticator app" });
  await expect(setup.getByRole("img", { name: /QR code/ })).toBeVisible();
  const key = (await setup.locator("[data-totp-key]").innerText()).replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(guest, "account-two-factor-setup");
  await setup.getByLabel("Code from the app").fill(codeAt(key, Date.now() - 60_000));
  await setup.getByRole("button", { name: "Turn on" }).click();
  await expect(setup.getByText(/is not correct/i)).toBeVisible();
  await setup.getByLabel("Code from the app").fill(codeAt(key, Date.now()));
  await setup.getByRole("button", { name: "Turn on" }).click();

  const reveal = guest.getByRole("dialog", { name: "Save your recovery codes" });
  const codes = (await reveal.locator("[data-secret]").inputValue()).split(" ");
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await reveal.getByRole("button", { name: "Done" }).click();
  await reveal.getByRole("button", { name: "I have stored it, close" }).click();
  await expect(guest.getByTestId("recovery-codes-left")).toHaveText("10 of 10 left");
  await phoneFits(guest, "account-two-factor-on");
  await signOut(guest);

  // The password alone no longer signs in: the code step comes, and a wrong code is refused.
  await signIn(guest, user.email, user.password);
  await expect(guest.getByLabel("Authentication code")).toBeVisible();
  await expect(guest).toHaveURL(/\/login/);
  expect((await guest.request.get("/api/account/two-factor", { maxRedirects: 0 })).status()).toBe(401);
  await screenshot(guest, "login-second-factor");
  // The code of the step after the one that turned the app on: a code is never taken twice.
  const right = codeAt(key, Date.now() + 30_000);
  await enterCode(guest, right === "000000" ? "111111" : "000000");
  await expect(guest.getByText(INVALID_CODE)).toBeVisible();
  await enterCode(guest, right);
  await guest.waitForURL((url) => !url.pathname.startsWith("/login"));
  await signOut(guest);

  // A recovery code signs in once, and not twice.
  await signIn(guest, user.email, user.password);
  await enterCode(guest, codes[0].toUpperCase());
  await guest.waitForURL((url) => !url.pathname.startsWith("/login"));
  expect(await visit(guest, "/account")).toBe(200);
  await expect(guest.getByTestId("recovery-codes-left")).toHaveText("9 of 10 left");
  await signOut(guest);
  await signIn(guest, user.email, user.password);
  await enterCode(guest, codes[0]);
  await expect(guest.getByText(INVALID_CODE)).toBeVisible();
  await expect(guest).toHaveURL(/\/login/);

  // Lost phone and codes: an admin resets the factor from the users screen; the password alone signs in again.
  await page.goto("/admin/users");
  await page.getByRole("row", { name: new RegExp(user.email) }).getByRole("button", { name: /actions for/i }).click();
  await page.getByRole("menuitem", { name: "Reset two-factor…" }).click();
  await page.getByRole("button", { name: "Reset two-factor" }).click();
  await expect(page.getByText("Two-factor sign-in reset")).toBeVisible();
  await signedIn(guest, user.email, user.password);
  expect(await visit(guest, "/account")).toBe(200);
  await expect(guest.getByRole("button", { name: "Set up authenticator app" })).toBeVisible();
  await guest.context().close();
});
