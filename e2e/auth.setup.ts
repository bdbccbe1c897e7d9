import { api, expect, signedIn, test as setup } from "./fixtures";
import { authFile, roleUser, run, type Persona } from "./support/run";
import { projectId } from "./support/users";

/**
 * Documenso/Dub pattern: sign in once per persona through the real login page and save the
 * session (e2e/.auth/<persona>.json) for the specs. The admin is the one the dashboard created
 * at its first start from ADMIN_EMAIL/ADMIN_PASSWORD; the others are created through the
 * admin API, as an admin would: support and marketer with every project, and an admin
 * limited to the first demo project.
 */
const OTHERS: Persona[] = ["support", "marketer", "limited-admin"];

setup("admin signs in and creates a user per persona", async ({ page }) => {
  await signedIn(page, run.admin.email, run.admin.password);
  await page.context().storageState({ path: authFile("admin") });
  const limitedTo = await projectId(page, run.projects[0]);
  for (const persona of OTHERS) {
    const user = roleUser(persona);
    const role = persona === "limited-admin" ? "admin" : persona;
    const access = persona === "limited-admin" ? { allProjects: false, projectIds: [limitedTo] } : { allProjects: true };
    const created = await api(page, "POST", "/api/admin/users", { email: user.email, name: `E2E ${persona}`, role, password: user.password, ...access });
    expect(created.status, created.text).toBe(201);
  }
});

for (const role of OTHERS) {
  setup(`${role} signs in`, async ({ page }) => {
    const user = roleUser(role);
    await signedIn(page, user.email, user.password);
    await page.context().storageState({ path: authFile(role) });
  });
}
