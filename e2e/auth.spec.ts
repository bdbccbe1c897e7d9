import type { Browser, BrowserContext } from "@playwright/test";
import { api, expect, expectNoSeriousA11yViolations, screenshot, signedIn, signIn, test, visit } from "./fixtures";
import { authFile, run } from "./support/run";
import { createUser, type TestUser } from "./support/users";

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
  await page.getByRole("menuitem", { name: /^sign out$/i }).click();
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

  test("repeated failures slow the account at this address with growing waits, even against the right password", async ({ page, browser }) => {
    await page.goto("/admin/users");
    const user = await createUser(page, "support", "throttled");
    const other = await createUser(page, "support", "bystander");
    // Contexts made in a test inherit its options: this one must start signed out.
    const guest = await (await browser.newContext({ storageState: SIGNED_OUT })).newPage();

    // LOGIN_THROTTLE_MAX defaults to 5 free failures per account and address.
    for (let i = 0; i < 5; i++) {
      await signIn(guest, user.email, `wrong-password-${i}`);
      await expect(guest.getByText(INCORRECT)).toBeVisible();
    }
    // Then each try waits 1 s, 2 s, 4 s … after the last failure: guess on until a refusal has
    // several seconds left, so the right password sent next is surely inside it.
    const throttled = /Too many sign-in attempts\. Try again in (\d+) seconds?\./;
    let left = 0;
    for (let i = 0; i < 15 && left < 4; i++) {
      await signIn(guest, user.email, `wrong-password-more-${i}`);
      const answer = guest.getByText(throttled).or(guest.getByText(INCORRECT));
      await expect(answer).toBeVisible();
      const text = (await answer.textContent()) ?? "";
      left = Number(throttled.exec(text)?.[1] ?? 0);
      if (left > 0 && left < 4) await guest.waitForTimeout(left * 1000);
    }
    expect(left).toBeGreaterThanOrEqual(4);
    await guest.getByLabel("Password").fill(user.password);
    await guest.getByRole("button", { name: "Sign in" }).click();
    await guest.waitForLoadState("networkidle");
    await expect(guest.getByText(throttled)).toBeVisible();
    await expect(guest).toHaveURL(/\/login/);
    const successes = await api(page, "GET", `/api/admin/audit?action=auth.sign_in&outcome=success&q=${encodeURIComponent(user.email)}`);
    expect((successes.json as { data: unknown[] }).data).toEqual([]);

    // Another account from the same address is not locked by it.
    await signedIn(guest, other.email, other.password);
    await expect(guest).toHaveURL(/\/p\//);

    // The refusals are in the audit log for the admin to see: one entry with their count.
    const audit = await api(page, "GET", `/api/admin/audit?action=auth.sign_in&q=${encodeURIComponent(user.email)}`);
    expect(audit.status, audit.text).toBe(200);
    const entries = (audit.json as { data: { detail: { reason?: string; count?: number } }[] }).data;
    const refused = entries.filter((e) => e.detail.reason === "throttled");
    expect(refused).toHaveLength(1);
    expect(refused[0].detail.count).toBeGreaterThanOrEqual(2);
  });
});

/** A browser context of its own, signed in as `user` through the login page. */
async function signedInContext(browser: Browser, user: { email: string; password: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  await signedIn(await context.newPage(), user.email, user.password);
  return context;
}

async function adminCreates(browser: Browser, label: string): Promise<TestUser> {
  const admin = await (await browser.newContext({ storageState: authFile("admin") })).newPage();
  await admin.goto("/admin/users");
  return createUser(admin, "support", label);
}

test("after signing out, the old session cookie is refused by the server", async ({ browser }) => {
  const user = await adminCreates(browser, "signout");
  const context = await signedInContext(browser, user);
  const page = context.pages()[0];
  const stolen = await context.cookies();
  expect((await api(page, "GET", `/api/p/${project}/overview`)).status).toBe(200);

  await page.getByRole("button", { name: /account/i }).click();
  await page.getByRole("menuitem", { name: /^sign out$/i }).click();
  await expect(page).toHaveURL(/\/login/);

  // Someone who copied the cookie before the sign-out replays it.
  const replay = await browser.newContext({ storageState: SIGNED_OUT });
  await replay.addCookies(stolen);
  const thief = await replay.newPage();
  expect((await api(thief, "GET", `/api/p/${project}/overview`)).status).toBe(401);
  await thief.goto(`/p/${project}`);
  await expect(thief).toHaveURL(/\/login\?callbackUrl=/);
});

test("sign out everywhere ends the user's sessions in every browser", async ({ browser }) => {
  const user = await adminCreates(browser, "everywhere");
  const laptop = await signedInContext(browser, user);
  const phone = await signedInContext(browser, user);
  const page = laptop.pages()[0];
  await visit(page, `/p/${project}`);

  await page.getByRole("button", { name: /account/i }).click();
  await expect(page.getByRole("menuitem", { name: /sign out everywhere/i })).toBeVisible();
  // No axe run while the menu is open: Radix marks the page behind a modal menu aria-hidden.
  await screenshot(page, "user-menu");
  await page.getByRole("menuitem", { name: /sign out everywhere/i }).click();
  const confirm = page.getByRole("alertdialog", { name: /sign out everywhere/i });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page, { soft: true });
  await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login/);

  const other = phone.pages()[0];
  expect((await api(other, "GET", `/api/p/${project}/overview`)).status).toBe(401);
  await other.goto(`/p/${project}`);
  await expect(other).toHaveURL(/\/login/);
  // Signing in again works: it ended sessions, not the account.
  await signedIn(other, user.email, user.password);
});

test("a crafted callbackUrl cannot send anyone off-site after signing in", async ({ browser }) => {
  const user = await adminCreates(browser, "redirect");
  const origin = new URL(run.baseURL).origin;
  for (const crafted of ["/.//evil.example/x", "//evil.example/x", "/\\evil.example", "https://evil.example/", "/%2F%2Fevil.example"]) {
    const context = await browser.newContext({ storageState: SIGNED_OUT });
    const page = await context.newPage();
    // Any request that leaves our origin is stopped and noted.
    const offsite: string[] = [];
    await page.route((url) => url.origin !== origin, (route) => {
      offsite.push(route.request().url());
      return route.abort();
    });
    await page.goto(`/login?callbackUrl=${encodeURIComponent(crafted)}`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    expect(new URL(page.url()).origin, crafted).toBe(origin);
    expect(offsite, crafted).toEqual([]);
    await context.close();
  }
});

test("forged forwarding headers do not change the address the sign-in is recorded from", async ({ browser }) => {
  const user = await adminCreates(browser, "address");
  const context = await browser.newContext({
    storageState: SIGNED_OUT,
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.77", "X-Real-IP": "203.0.113.78", "X-Mailroom-Peer": "203.0.113.79" },
  });
  await signedIn(await context.newPage(), user.email, user.password);
  const admin = await (await browser.newContext({ storageState: authFile("admin") })).newPage();
  await admin.goto("/admin/audit");
  const audit = await api(admin, "GET", `/api/admin/audit?action=auth.sign_in&q=${encodeURIComponent(user.email)}`);
  const entry = (audit.json as { data: { detail: { address?: string } }[] }).data[0];
  // No TRUSTED_PROXIES in this run: the address is the TCP peer, the test runner itself.
  expect(entry.detail.address).toMatch(/^(127\.0\.0\.1|::1)$/);
});
