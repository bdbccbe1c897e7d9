import { api, expect, signedIn, test as setup } from "./fixtures";
import { authFile, roleUser, run } from "./support/run";

/**
 * Documenso/Dub pattern: sign in once per role through the real login page and save the
 * session (e2e/.auth/<role>.json) for the specs. The admin is the one the dashboard created
 * at its first start from ADMIN_EMAIL/ADMIN_PASSWORD; the others are created through the
 * admin API, as an admin would.
 */
const OTHER_ROLES = ["support", "marketer"] as const;

setup("admin signs in and creates a user per role", async ({ page }) => {
  await signedIn(page, run.admin.email, run.admin.password);
  await page.context().storageState({ path: authFile("admin") });
  for (const role of OTHER_ROLES) {
    const user = roleUser(role);
    const created = await api(page, "POST", "/api/admin/users", { email: user.email, name: `E2E ${role}`, role, password: user.password });
    expect(created.status, created.text).toBe(201);
  }
});

for (const role of OTHER_ROLES) {
  setup(`${role} signs in`, async ({ page }) => {
    const user = roleUser(role);
    await signedIn(page, user.email, user.password);
    await page.context().storageState({ path: authFile(role) });
  });
}
