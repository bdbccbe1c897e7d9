import { Secret, TOTP } from "otpauth";
import { api, expect, screenshot, signedIn, test } from "./fixtures";
import { authFile, run } from "./support/run";
import { createUser } from "./support/users";
import { budget } from "./support/budget";

/**
 * The rule holds every user of a role, so while it is on, a test beside this one would find
 * its marketer held on the Account screen. None runs beside it: each lane has a stack of its
 * own and runs its files one at a time (workers: 1 in playwright.config.ts). The rule is
 * lifted whatever happens, before the lane's next file.
 *
 * Two factors required per role (issue 29): an admin requires them for marketers; a marketer
 * without one signs in and is led to the Account screen before anything else — every screen
 * and every API route say so — and once the app is on, the dashboard opens as before.
 */
const SIGNED_OUT = { cookies: [], origins: [] };
const project = run.projects[0];
const codeAt = (key: string, at: number) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: at });

test.use({ storageState: authFile("admin") });

test("a role that requires two factors leads its users to set one up before anything else", async ({ page, browser }) => {
  test.setTimeout(budget(120_000));
  await page.goto("/admin/users");
  const user = await createUser(page, "marketer", "must2fa");
  try {
    await page.getByRole("button", { name: "Two-factor rules" }).click();
    const rules = page.getByRole("dialog", { name: "Two-factor sign-in rules" });
    await rules.getByRole("checkbox", { name: "Marketer" }).click();
    await rules.getByRole("button", { name: "Save rules" }).click();
    await expect(page.getByText("Two-factor rules saved")).toBeVisible();

    const guest = await (await browser.newContext({ storageState: SIGNED_OUT })).newPage();
    await signedIn(guest, user.email, user.password);
    await expect(guest).toHaveURL(/\/account$/);
    // Any screen leads back to the Account screen, and the API refuses with the reason.
    await guest.goto(`/p/${project}/templates`);
    await expect(guest).toHaveURL(/\/account$/);
    await expect(guest.getByRole("button", { name: "Set up authenticator app" })).toBeVisible();
    await screenshot(guest, "account-two-factor-required");
    const refused = await api(guest, "GET", `/api/p/${project}/templates`);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: "second_factor_setup_required" } });

    await guest.getByRole("button", { name: "Set up authenticator app" }).click();
    const setup = guest.getByRole("dialog", { name: "Set up an authenticator app" });
    const key = (await setup.locator("[data-totp-key]").innerText()).replace(/\s/g, "");
    await setup.getByLabel("Code from the app").fill(codeAt(key, Date.now()));
    await setup.getByRole("button", { name: "Turn on" }).click();
    const reveal = guest.getByRole("dialog", { name: "Save your recovery codes" });
    await reveal.getByRole("button", { name: "Done" }).click();
    await reveal.getByRole("button", { name: "I have stored it, close" }).click();

    // With the factor on, the marketer's screens open again.
    await guest.goto(`/p/${project}/templates`);
    await expect(guest).toHaveURL(new RegExp(`/p/${project}/templates$`));
    expect((await api(guest, "GET", `/api/p/${project}/templates`)).status).toBe(200);
    await guest.context().close();
  } finally {
    const lifted = await api(page, "PUT", "/api/admin/two-factor-policy", { requiredRoles: [] });
    expect(lifted.status).toBe(200);
  }
});
