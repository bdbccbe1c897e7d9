import type { Browser, Page } from "@playwright/test";
import { sendMessage } from "../scripts/lib/service-api";
import { api, expect, expectRefused, signedIn, signIn, test, visit } from "./fixtures";
import { authFile, run, serviceKey } from "./support/run";
import { createUser, projectId, type TestUser } from "./support/users";

/**
 * The guard reads role, active flag and project grants from the database on every request:
 * an admin's change reaches a user who is already signed in at their next click.
 */
const [projectA, projectB] = run.projects;

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: authFile("admin") });
  const page = await context.newPage();
  await page.goto("/admin/users");
  return page;
}

async function userPage(browser: Browser, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signedIn(page, user.email, user.password);
  return page;
}

test("a disabled user is cut off at the next request and cannot sign in again", async ({ browser }) => {
  const admin = await adminPage(browser);
  const user = await createUser(admin, "support", "disabled");
  const page = await userPage(browser, user);
  expect(await visit(page, `/p/${projectA}`)).toBe(200);

  const disabled = await api(admin, "PATCH", `/api/admin/users/${user.id}`, { active: false });
  expect(disabled.status, disabled.text).toBe(200);

  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  const answer = await api(page, "GET", `/api/p/${projectA}/messages/does-not-matter`);
  expect(answer.status).toBe(401);

  await signIn(page, user.email, user.password);
  await expect(page.getByText("Email or password is incorrect.")).toBeVisible();
});

test("a demoted admin loses the admin screens at the next request", async ({ browser }) => {
  const admin = await adminPage(browser);
  const user = await createUser(admin, "admin", "demoted");
  const page = await userPage(browser, user);
  expect(await visit(page, "/admin/users")).toBe(200);

  const demoted = await api(admin, "PATCH", `/api/admin/users/${user.id}`, { role: "marketer" });
  expect(demoted.status, demoted.text).toBe(200);

  await expectRefused(page, await visit(page, "/admin/users"), "the demoted admin on /admin/users");
  expect((await api(page, "GET", "/api/admin/users")).status).toBe(403);
});

test("a user limited to one project gets 404 for the other", async ({ browser }) => {
  expect(projectB, "the demo seed registers two projects").toBeTruthy();
  const admin = await adminPage(browser);
  const user = await createUser(admin, "support", "limited");
  const granted = await api(admin, "PUT", `/api/admin/users/${user.id}/projects`, {
    allProjects: false,
    projectIds: [await projectId(admin, projectA)],
  });
  expect(granted.status, granted.text).toBe(200);
  const messageInB = await sendMessage({ serviceURL: run.serviceURL, key: serviceKey(), project: projectB });

  const page = await userPage(browser, user);
  expect(await visit(page, `/p/${projectA}`)).toBe(200);
  expect(await visit(page, `/p/${projectB}`)).toBe(404);
  expect((await api(page, "GET", `/api/p/${projectB}/messages/${messageInB}`)).status).toBe(404);
  // The refusal does not say whether the project exists.
  expect(await visit(page, "/p/no-such-project")).toBe(404);
});
