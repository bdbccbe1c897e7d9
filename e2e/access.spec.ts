import type { Page } from "@playwright/test";
import { can, ROLES, type Role } from "../lib/permissions";
import { api, expect, expectRefused, refusal, screenshot, test, visit } from "./fixtures";
import { sampleValues } from "./support/records";
import { apiRoutes, fill, fullyKnown, navPermission, screenRoutes, type ApiRoute, type ScreenRoute } from "./support/routes";
import { authFile, run } from "./support/run";

/**
 * Each role against every screen and API route that exists (read from app/): allowed ones
 * open, the others are refused by the guard with 403, and nobody signed out gets anything.
 */
const screens = screenRoutes();
const routes = apiRoutes();
const project = run.projects[0];
let values: Record<string, string> = { project };

test.beforeAll(async () => {
  values = await sampleValues(project);
});

/** `/p/[project]/messages/[id]` → `p-project-messages-id`: the same name every run. */
const slug = (pattern: string) => pattern.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "root";
const withoutBody = (method: string) => method === "GET" || method === "DELETE";

test("the inventory finds the foundation's screens and routes, guarded as the sidebar shows them", () => {
  const patterns = screens.map((s) => s.pattern);
  for (const expected of ["/login", "/admin/users", "/admin/projects", "/admin/audit", "/p/[project]"]) expect(patterns).toContain(expected);
  expect(routes.map((r) => `${r.method} ${r.pattern}`)).toEqual(
    expect.arrayContaining(["POST /api/admin/users", "PATCH /api/admin/users/[id]", "PUT /api/admin/users/[id]/projects", "GET /api/health"]),
  );
  // A link the sidebar shows must open, and a hidden one must be refused: same permission.
  for (const screen of screens) {
    const nav = navPermission(screen.pattern);
    if (nav) expect.soft(screen.permission, `${screen.pattern} guards what its sidebar link requires`).toBe(nav);
  }
});

async function checkScreen(page: Page, role: Role, screen: ScreenRoute) {
  const url = fill(screen.pattern, values);
  const status = await visit(page, url);
  if (screen.allowed(role)) {
    // A made-up record id may be "not found"; a refusal or an error never.
    const ok = fullyKnown(screen.pattern, values) ? [200] : [200, 404];
    expect.soft(ok, `${role} opens ${url} (HTTP ${status})`).toContain(status);
    expect.soft(new URL(page.url()).pathname, `${role} stays signed in on ${url}`).not.toBe("/login");
    await expect.soft(refusal(page), `${role} is not refused ${url}`).toHaveCount(0);
    if (role === "admin" && status === 200) await screenshot(page, slug(screen.pattern));
  } else {
    await expectRefused(page, status, `${role} is refused ${url}`);
  }
}

async function checkRoute(page: Page, role: Role, route: ApiRoute) {
  // Reads name real records; writes only made-up ones, so an allowed write changes nothing.
  const url = fill(route.pattern, route.method === "GET" ? values : { project });
  const answer = await api(page, route.method, url, withoutBody(route.method) ? undefined : {});
  const label = `${role}: ${route.method} ${url} → ${answer.status} ${answer.text.slice(0, 200)}`;
  if (route.signed) {
    // A session is no signature: refused whoever sends it.
    expect.soft(answer.status, label).toBeGreaterThanOrEqual(400);
    expect.soft(answer.status, label).toBeLessThan(500);
  } else if (route.permission === null || can(role, route.permission)) {
    // Allowed, though creating a secret may first ask an older sign-in for the password.
    const code = (answer.json as { error?: { code?: string } } | null)?.error?.code;
    if (code !== "reauth_required") expect.soft([401, 403], label).not.toContain(answer.status);
    expect.soft(answer.status, label).toBeLessThan(500);
  } else {
    expect.soft(answer.status, label).toBe(403);
    expect.soft((answer.json as { error?: { code?: string } } | null)?.error?.code, label).toBe("forbidden");
  }
}

for (const role of ROLES) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: authFile(role) });

    test("every screen opens or is refused as the role allows", async ({ page }) => {
      test.setTimeout(30_000 + screens.length * 10_000);
      for (const screen of screens.filter((s) => s.pattern !== "/login")) await checkScreen(page, role, screen);
    });

    test("every API route answers or refuses as the role allows", async ({ page }) => {
      await page.goto(`/p/${project}`);
      // Reads first; writes get an empty body, which the guard refuses before any effect
      // and which validation refuses for an allowed role.
      const ordered = [...routes].sort((a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"));
      for (const route of ordered) await checkRoute(page, role, route);
    });
  });
}

test.describe("signed out", () => {
  test("screens send to the sign-in page and API routes answer 401", async ({ page }) => {
    for (const screen of screens.filter((s) => s.pattern !== "/login")) {
      const url = fill(screen.pattern, values);
      await page.goto(url);
      await expect.soft(page, `${url} asks to sign in`).toHaveURL(/\/login(\?|$)/);
    }
    await visit(page, "/login");
    for (const route of routes.filter((r) => r.permission !== null && !r.signed)) {
      const url = fill(route.pattern, route.method === "GET" ? values : { project });
      const answer = await api(page, route.method, url, withoutBody(route.method) ? undefined : {});
      expect.soft(answer.status, `${route.method} ${url}: ${answer.text.slice(0, 200)}`).toBe(401);
    }
  });
});
