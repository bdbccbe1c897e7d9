import { api, expect, expectNoSeriousA11yViolations, screenshot, signedIn, signIn, test, visit } from "./fixtures";
import { authFile, run } from "./support/run";
import { createUser } from "./support/users";

const INCORRECT = "Email or password is incorrect.";
const SIGNED_OUT = { cookies: [], origins: [] };
const project = run.projects[0];

test("signs in from the login page and signs out from the user menu", async ({ page }) => {
  expect(await visit(page, "/login")).toBe(200);
  await screenshot(page, "login");
  await signedIn(page, run.admin.email, run.admin.password);
  await expect(page).toHaveURL(/\/p\/[^/]+/);
  await expectNoSeriousA11yViolations(page, { soft: true });
  await screenshot(page, "overview");

  await page.getByRole("button", { name: /user menu|account/i }).click();
  await page.getByRole("menuitem", { name: /sign out/i }).click();
  await expect(page).toHaveURL(/\/login/);
  // The session is gone on the server side too: a screen asks to sign in again.
  await page.goto(`/p/${project}`);
  await expect(page).toHaveURL(/\/login/);
});

test("a wrong password and an unknown account get the same answer", async ({ page }) => {
  await signIn(page, run.admin.email, "not-the-password-at-all");
  await expect(page.getByText(INCORRECT)).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await expectNoSeriousA11yViolations(page, { soft: true });
  // What was typed stays, except the password.
  await expect(page.getByLabel("Email")).toHaveValue(run.admin.email);

  await signIn(page, "nobody-here@e2e.test", "not-the-password-at-all");
  await expect(page.getByText(INCORRECT)).toBeVisible();
});

test("after a sign-in the user lands on the page that asked for it", async ({ page }) => {
  const target = `/p/${project}`;
  await page.goto(`${target}?from=e2e`);
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await page.getByLabel("Email").fill(run.admin.email);
  await page.getByLabel("Password").fill(run.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${target}\\?from=e2e$`));
});

test.describe("throttling", () => {
  test.use({ storageState: authFile("admin") });

  test("repeated failures lock the account for a while, even against the right password", async ({ page, browser }) => {
    await page.goto("/admin/users");
    const user = await createUser(page, "support", "throttled");
    const other = await createUser(page, "support", "bystander");
    // Contexts made in a test inherit its options: this one must start signed out.
    const guest = await (await browser.newContext({ storageState: SIGNED_OUT })).newPage();

    // LOGIN_THROTTLE_MAX defaults to 5 failures per 15 minutes.
    for (let i = 0; i < 5; i++) {
      await signIn(guest, user.email, `wrong-password-${i}`);
      await expect(guest.getByText(INCORRECT)).toBeVisible();
    }
    await signIn(guest, user.email, user.password);
    await expect(guest.getByText(/Too many sign-in attempts\. Try again in \d+ minutes?\./)).toBeVisible();
    await expect(guest).toHaveURL(/\/login/);

    // Another account from the same address is not locked by it.
    await signedIn(guest, other.email, other.password);
    await expect(guest).toHaveURL(/\/p\//);

    // The lock is in the audit log for the admin to see.
    const audit = await api(page, "GET", `/api/admin/audit?q=${encodeURIComponent(user.email)}`);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.text).toContain(user.email);
  });
});
