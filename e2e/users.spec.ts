import type { Browser, Page } from "@playwright/test";
import { sendMessage } from "../scripts/lib/service-api";
import { api, expect, expectNoSeriousA11yViolations, expectRefused, screenshot, signedIn, signIn, test, visit } from "./fixtures";
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

test("a demoted admin is signed out at the next request and comes back without the admin screens", async ({ browser }) => {
  const admin = await adminPage(browser);
  const user = await createUser(admin, "admin", "demoted");
  const page = await userPage(browser, user);
  expect(await visit(page, "/admin/users")).toBe(200);

  const demoted = await api(admin, "PATCH", `/api/admin/users/${user.id}`, { role: "marketer" });
  expect(demoted.status, demoted.text).toBe(200);

  // A role change ends the user's sessions.
  expect((await api(page, "GET", "/api/admin/users")).status).toBe(401);
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await signedIn(page, user.email, user.password);
  await expectRefused(page, await visit(page, "/admin/users"), "the demoted admin on /admin/users");
  expect((await api(page, "GET", "/api/admin/users")).status).toBe(403);
});

test("an admin ends another user's sessions from the users screen", async ({ browser }) => {
  const admin = await adminPage(browser);
  const user = await createUser(admin, "support", "sessions");
  const page = await userPage(browser, user);
  expect(await visit(page, `/p/${projectA}`)).toBe(200);

  await admin.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  const row = admin.getByRole("row", { name: new RegExp(user.email) });
  await expect(row.getByRole("cell", { name: "1 active" })).toBeVisible();
  await screenshot(admin, "admin-users-sessions");
  await row.getByRole("button", { name: /actions for/i }).click();
  await expect(admin.getByRole("menuitem", { name: /end sessions/i })).toBeEnabled();
  await screenshot(admin, "admin-users-actions");
  await admin.getByRole("menuitem", { name: /end sessions/i }).click();
  const confirm = admin.getByRole("alertdialog", { name: /end every session/i });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(admin, { soft: true });
  await confirm.getByRole("button", { name: "End sessions" }).click();
  await expect(admin.getByText(/was signed out of 1 session/)).toBeVisible();
  await expect(row.getByRole("cell", { name: "None" })).toBeVisible();

  await page.goto(`/p/${projectA}`);
  await expect(page).toHaveURL(/\/login/);
  const audit = await api(admin, "GET", `/api/admin/audit?action=user.sessions_end&q=${encodeURIComponent(user.email)}`);
  expect(audit.text).toContain(user.email);
});

test("the create-user dialog asks for projects, and a new user gets only those", async ({ browser }) => {
  const admin = await adminPage(browser);
  const email = `picked-${Date.now()}@e2e.test`;
  await admin.getByRole("button", { name: "Create user" }).first().click();
  const dialog = admin.getByRole("dialog", { name: "Create a user" });
  await dialog.getByLabel("Email").fill(email);
  await expect(dialog.getByText("With none selected, this person can sign in but open no project.")).toBeVisible();
  // The "All projects" switch: off, on (the project list goes), off again, by its label.
  const all = dialog.getByRole("switch", { name: "All projects" });
  await expect(all).toHaveAttribute("aria-checked", "false");
  await dialog.getByText("All projects", { exact: true }).click();
  await expect(all).toHaveAttribute("aria-checked", "true");
  await expect(dialog.getByRole("checkbox", { name: new RegExp(projectA) })).toHaveCount(0);
  await all.focus();
  await admin.keyboard.press("Space");
  await expect(all).toHaveAttribute("aria-checked", "false");
  await dialog.getByRole("checkbox", { name: new RegExp(projectA) }).check();
  await expect(dialog.getByText("1 selected.")).toBeVisible();
  await expectNoSeriousA11yViolations(admin, { soft: true });
  await screenshot(admin, "admin-create-user-projects");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(admin.getByRole("dialog", { name: new RegExp(`Password for ${email}`) })).toBeVisible();

  const list = await api(admin, "GET", "/api/admin/users");
  const created = (list.json as { data: { email: string; allProjects: boolean; projectIds: string[] }[] }).data.find((u) => u.email === email);
  expect(created).toMatchObject({ allProjects: false, projectIds: [await projectId(admin, projectA)] });
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
