import type { Page, TestInfo } from "@playwright/test";
import path from "node:path";
import { api, expect, expectRefused, refusal, screenshot, test, visit } from "./fixtures";
import { KeyWatch, leaksInSourceMaps, savedFindings } from "./support/key-nowhere";
import { sampleValues } from "./support/records";
import { apiRoutes, fill, fullyKnown, navPermission, screenRoutes, type ApiRoute, type ScreenRoute } from "./support/routes";
import { authFile, run, type Persona } from "./support/run";
import { budget } from "./support/budget";

/**
 * Who may use what, written down here from the roles table of the README — not read from
 * the routes' own code, so a route that declares the wrong permission fails this test.
 * Every screen and every API route and method that exists (found in app/ by
 * ./support/routes.ts) must have a row; a new one fails until someone adds it.
 *
 * Columns: admin, support, marketer, an admin limited to the first demo project (on that
 * project), and nobody signed in.
 *   Y     allowed: neither 401 nor 403 (a made-up id or an empty body may still be 400/404/409)
 *   N     refused by the guard: 403 `forbidden`
 *   OUT   signed out: 401 for API routes; screens send to the sign-in page
 *   SIG   authenticated by a webhook signature or a bearer token, not a session: refused (4xx) for everyone
 */
const Y = "Y";
const N = "N";
const OUT = "OUT";
const SIG = "SIG";
type Cell = typeof Y | typeof N | typeof OUT | typeof SIG;
type Row = readonly [admin: Cell, support: Cell, marketer: Cell, limitedAdmin: Cell, signedOut: Cell];

const PERSONAS = ["admin", "support", "marketer", "limited-admin"] as const satisfies readonly Persona[];
const COLUMN: Record<(typeof PERSONAS)[number] | "signed-out", number> = { admin: 0, support: 1, marketer: 2, "limited-admin": 3, "signed-out": 4 };

// Rows by README line: what every role reads; what needs a role; what needs every project.
const READ: Row = [Y, Y, Y, Y, OUT];
const SEND: Row = [Y, Y, Y, Y, OUT];
const SUPPORT_WORK: Row = [Y, Y, N, Y, OUT]; // reply, simulate inbound, add suppressions, erase a recipient
const MARKETING_WORK: Row = [Y, N, Y, Y, OUT]; // batches, templates' samples, contacts' changes and imports
const PROJECT_ADMIN: Row = [Y, N, N, Y, OUT]; // domains, project API keys, webhooks, event stream
const ACCOUNT_ADMIN: Row = [Y, N, N, N, OUT]; // users, projects, audit log: every project needed
const ANY_SIGNED_IN: Row = [Y, Y, Y, Y, OUT];
const PUBLIC: Row = [Y, Y, Y, Y, Y];
const SIGNED: Row = [SIG, SIG, SIG, SIG, SIG];

const API_TABLE: Record<string, Row> = {
  "GET /api/health": PUBLIC,
  "POST /api/auth/reconfirm": ANY_SIGNED_IN,
  // Each user's own second factor (the Account screen).
  "GET /api/account/two-factor": ANY_SIGNED_IN,
  "POST /api/account/two-factor/totp": ANY_SIGNED_IN,
  "DELETE /api/account/two-factor/totp": ANY_SIGNED_IN,
  "POST /api/account/two-factor/totp/confirm": ANY_SIGNED_IN,
  "POST /api/account/two-factor/recovery-codes": ANY_SIGNED_IN,
  "POST /api/account/two-factor/passkeys/options": ANY_SIGNED_IN,
  "POST /api/account/two-factor/passkeys": ANY_SIGNED_IN,
  "PATCH /api/account/two-factor/passkeys/[id]": ANY_SIGNED_IN,
  "DELETE /api/account/two-factor/passkeys/[id]": ANY_SIGNED_IN,
  "POST /api/auth/reconfirm/passkey": ANY_SIGNED_IN,

  "GET /api/admin/audit": ACCOUNT_ADMIN,
  "GET /api/admin/audit/export": ACCOUNT_ADMIN,
  "GET /api/admin/users": ACCOUNT_ADMIN,
  "POST /api/admin/users": ACCOUNT_ADMIN,
  "PATCH /api/admin/users/[id]": ACCOUNT_ADMIN,
  "POST /api/admin/users/[id]/password": ACCOUNT_ADMIN,
  "PUT /api/admin/users/[id]/projects": ACCOUNT_ADMIN,
  "DELETE /api/admin/users/[id]/sessions": ACCOUNT_ADMIN,
  "DELETE /api/admin/users/[id]/two-factor": ACCOUNT_ADMIN,
  "GET /api/admin/two-factor-policy": ACCOUNT_ADMIN,
  "PUT /api/admin/two-factor-policy": ACCOUNT_ADMIN,
  "GET /api/projects": ANY_SIGNED_IN,
  "POST /api/projects": ACCOUNT_ADMIN,
  "PATCH /api/projects/[id]": ACCOUNT_ADMIN,
  "DELETE /api/projects/[id]": ACCOUNT_ADMIN,

  "POST /api/ingest/[project]": SIGNED,
  // Prometheus's scrape: a bearer token (METRICS_TOKEN), never a session — a 404 for every session.
  "GET /api/metrics": SIGNED,

  "GET /api/p/[project]/overview": READ,
  "GET /api/p/[project]/deliverability": READ,
  "GET /api/p/[project]/insight/tags": READ,
  "GET /api/p/[project]/alerts": READ,
  "GET /api/p/[project]/alerts/active": READ,
  "PUT /api/p/[project]/alerts/settings": PROJECT_ADMIN,
  "POST /api/p/[project]/alerts/webhook-secret": PROJECT_ADMIN,
  "GET /api/p/[project]/messages": READ,
  "GET /api/p/[project]/messages/export": READ,
  "GET /api/p/[project]/messages/[id]": READ,
  "GET /api/p/[project]/messages/[id]/detail": READ,
  "GET /api/p/[project]/messages/[id]/attachments/[attachmentId]": READ,
  "POST /api/p/[project]/messages/[id]/reply": SUPPORT_WORK,
  "GET /api/p/[project]/recipients/[email]": READ,
  "GET /api/p/[project]/recipients/[email]/export": READ,
  "POST /api/p/[project]/recipients/[email]/erase": SUPPORT_WORK,
  "GET /api/p/[project]/event-stream": READ,
  "POST /api/p/[project]/event-stream": PROJECT_ADMIN,
  "GET /api/p/[project]/event-stream/status": PROJECT_ADMIN,
  // What reached the event stream, and "process again" on one delivery (the webhooks screen).
  "GET /api/p/[project]/event-stream/deliveries": PROJECT_ADMIN,
  "POST /api/p/[project]/event-stream/deliveries/[id]/process": PROJECT_ADMIN,
  // "Test an endpoint" on the webhooks screen: an outbound request, so admins only.
  "POST /api/p/[project]/webhook-test": PROJECT_ADMIN,
  "POST /api/p/[project]/emails": SEND,
  "POST /api/p/[project]/checks": SEND,
  "POST /api/p/[project]/checks/links": SEND,
  "POST /api/p/[project]/inbound/simulate": SUPPORT_WORK,
  // Saved views: whoever reads messages keeps and changes their own (ownership is the server's check, views.test.ts).
  "GET /api/p/[project]/views": READ,
  "POST /api/p/[project]/views": READ,
  "PATCH /api/p/[project]/views/[viewId]": READ,
  "DELETE /api/p/[project]/views/[viewId]": READ,

  "GET /api/p/[project]/batches": MARKETING_WORK,
  "POST /api/p/[project]/batches": MARKETING_WORK,
  "POST /api/p/[project]/batches/check": MARKETING_WORK,
  "GET /api/p/[project]/batches/[id]": MARKETING_WORK,
  "GET /api/p/[project]/batches/[id]/results": MARKETING_WORK,
  "POST /api/p/[project]/batches/[id]/retry": MARKETING_WORK,
  "GET /api/p/[project]/batches/[id]/rows": MARKETING_WORK,

  "GET /api/p/[project]/templates": READ,
  "POST /api/p/[project]/templates/preview": READ,
  "GET /api/p/[project]/templates/[id]": READ,
  "POST /api/p/[project]/templates/[id]/render": READ,
  "POST /api/p/[project]/templates/[id]/test": SEND,
  "GET /api/p/[project]/templates/[id]/samples": READ,
  "POST /api/p/[project]/templates/[id]/samples": MARKETING_WORK,
  "DELETE /api/p/[project]/templates/[id]/samples/[sampleId]": MARKETING_WORK,

  "GET /api/p/[project]/contacts": READ,
  "GET /api/p/[project]/contacts/export": READ,
  "POST /api/p/[project]/contacts": MARKETING_WORK,
  "GET /api/p/[project]/contacts/lookup": READ,
  "GET /api/p/[project]/contacts/[id]": READ,
  "POST /api/p/[project]/contacts/[id]/resubscribe": MARKETING_WORK,
  "GET /api/p/[project]/contacts/import": MARKETING_WORK,
  "POST /api/p/[project]/contacts/import": MARKETING_WORK,
  "GET /api/p/[project]/contacts/import/[id]": MARKETING_WORK,
  "GET /api/p/[project]/contacts/import/[id]/results": MARKETING_WORK,
  "POST /api/p/[project]/contacts/import/[id]/retry": MARKETING_WORK,
  "GET /api/p/[project]/contacts/import/[id]/rows": MARKETING_WORK,

  "GET /api/p/[project]/suppressions": READ,
  "GET /api/p/[project]/suppressions/export": READ,
  "POST /api/p/[project]/suppressions": SUPPORT_WORK,
  "GET /api/p/[project]/suppressions/bulk": SUPPORT_WORK,
  "POST /api/p/[project]/suppressions/bulk": SUPPORT_WORK,
  "POST /api/p/[project]/suppressions/bulk/check": SUPPORT_WORK,
  "GET /api/p/[project]/suppressions/bulk/[id]": SUPPORT_WORK,
  "GET /api/p/[project]/suppressions/bulk/[id]/results": SUPPORT_WORK,
  "POST /api/p/[project]/suppressions/bulk/[id]/retry": SUPPORT_WORK,
  "GET /api/p/[project]/suppressions/bulk/[id]/rows": SUPPORT_WORK,

  "GET /api/p/[project]/domains": READ,
  "POST /api/p/[project]/domains": PROJECT_ADMIN,
  "GET /api/p/[project]/domains/[id]": READ,
  "GET /api/p/[project]/domains/[id]/check": READ,
  "GET /api/p/[project]/domains/[id]/dmarc": READ,

  "GET /api/p/[project]/api-keys": PROJECT_ADMIN,
  "POST /api/p/[project]/api-keys": PROJECT_ADMIN,
  "DELETE /api/p/[project]/api-keys/[id]": PROJECT_ADMIN,
  "GET /api/p/[project]/webhooks": PROJECT_ADMIN,
  "POST /api/p/[project]/webhooks": PROJECT_ADMIN,
  "DELETE /api/p/[project]/webhooks/[id]": PROJECT_ADMIN,
};

const SCREEN_TABLE: Record<string, Row> = {
  "/": ANY_SIGNED_IN,
  "/account": ANY_SIGNED_IN,
  "/admin": ACCOUNT_ADMIN,
  "/admin/users": ACCOUNT_ADMIN,
  "/admin/projects": ACCOUNT_ADMIN,
  "/admin/audit": ACCOUNT_ADMIN,
  "/p/[project]": READ,
  "/p/[project]/deliverability": READ,
  "/p/[project]/tags": READ,
  "/p/[project]/alerts": READ,
  "/p/[project]/messages": READ,
  "/p/[project]/messages/[id]": READ,
  "/p/[project]/recipients/[email]": READ,
  "/p/[project]/scheduled": READ,
  "/p/[project]/compose": SEND,
  "/p/[project]/inbound/simulate": SUPPORT_WORK,
  "/p/[project]/batches": MARKETING_WORK,
  "/p/[project]/batches/[job]": MARKETING_WORK,
  "/p/[project]/templates": READ,
  "/p/[project]/templates/[id]": READ,
  "/p/[project]/contacts": READ,
  "/p/[project]/contacts/[id]": READ,
  "/p/[project]/contacts/import": READ,
  "/p/[project]/contacts/import/[job]": READ,
  "/p/[project]/suppressions": READ,
  "/p/[project]/suppressions/bulk": READ,
  "/p/[project]/suppressions/bulk/[job]": READ,
  "/p/[project]/domains": READ,
  "/p/[project]/domains/[id]": READ,
  "/p/[project]/api-keys": PROJECT_ADMIN,
  "/p/[project]/webhooks": PROJECT_ADMIN,
};

const screens = screenRoutes().filter((s) => s.pattern !== "/login");
const routes = apiRoutes();
const [project, otherProject] = run.projects;
let values: Record<string, string> = { project };

test.beforeAll(async () => {
  values = await sampleValues(project);
});

/** Where each persona's pass leaves what it saw of the service key (./support/key-nowhere.ts). */
const keyDir = (testInfo: TestInfo) => path.join(testInfo.project.outputDir, "key-nowhere");

const routeKey = (r: ApiRoute) => `${r.method} ${r.pattern}`;
const expectedFor = (row: Row, who: keyof typeof COLUMN) => row[COLUMN[who]];
/** `/p/[project]/messages/[id]` → `p-project-messages-id`: the same name every run. */
const slug = (pattern: string) => pattern.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "root";
const withoutBody = (method: string) => method === "GET" || method === "DELETE";
const inProject = (pattern: string) => pattern.startsWith("/p/[project]") || pattern.startsWith("/api/p/[project]");

test("every screen and API route that exists has a row in the table, and every row still exists", () => {
  expect.soft(screens.map((s) => s.pattern).filter((p) => !(p in SCREEN_TABLE)), "screens without a row").toEqual([]);
  expect.soft(routes.map(routeKey).filter((k) => !(k in API_TABLE)), "API routes without a row").toEqual([]);
  expect.soft(Object.keys(SCREEN_TABLE).filter((p) => !screens.some((s) => s.pattern === p)), "rows of screens that are gone").toEqual([]);
  expect.soft(Object.keys(API_TABLE).filter((k) => !routes.some((r) => routeKey(r) === k)), "rows of API routes that are gone").toEqual([]);
  // A link the sidebar shows must open, and a hidden one must be refused: same permission.
  for (const screen of screens) {
    const nav = navPermission(screen.pattern);
    if (nav) expect.soft(screen.permission, `${screen.pattern} guards what its sidebar link requires`).toBe(nav);
  }
});

async function checkScreen(page: Page, who: (typeof PERSONAS)[number], screen: ScreenRoute) {
  const row = SCREEN_TABLE[screen.pattern];
  if (!row) return; // reported by the inventory test
  const url = fill(screen.pattern, values);
  const status = await visit(page, url);
  if (expectedFor(row, who) === Y) {
    // A made-up record id may be "not found"; a refusal or an error never.
    const ok = fullyKnown(screen.pattern, values) ? [200] : [200, 404];
    expect.soft(ok, `${who} opens ${url} (HTTP ${status})`).toContain(status);
    expect.soft(new URL(page.url()).pathname, `${who} stays signed in on ${url}`).not.toBe("/login");
    await expect.soft(refusal(page), `${who} is not refused ${url}`).toHaveCount(0);
    if (who === "admin" && status === 200) await screenshot(page, slug(screen.pattern));
  } else {
    await expectRefused(page, status, `${who} is refused ${url}`);
  }
}

async function checkRoute(page: Page, who: (typeof PERSONAS)[number] | "signed-out", route: ApiRoute, keys?: KeyWatch) {
  const row = API_TABLE[routeKey(route)];
  if (!row) return; // reported by the inventory test
  // Reads name real records; writes only made-up ones, so an allowed write changes nothing.
  const url = fill(route.pattern, route.method === "GET" ? values : { project });
  const answer = await api(page, route.method, url, withoutBody(route.method) ? undefined : {});
  keys?.note(`${route.method} ${url} (${who})`, JSON.stringify(answer.headers) + answer.text);
  const label = `${who}: ${route.method} ${url} → ${answer.status} ${answer.text.slice(0, 200)}`;
  const code = (answer.json as { error?: { code?: string } } | null)?.error?.code;
  expect.soft(answer.status, label).toBeLessThan(500);
  switch (expectedFor(row, who)) {
    case Y:
      // Allowed, though creating a secret may first ask an older sign-in for the password.
      if (code !== "reauth_required") expect.soft([401, 403], label).not.toContain(answer.status);
      break;
    case N:
      expect.soft(answer.status, label).toBe(403);
      expect.soft(code, label).toBe("forbidden");
      break;
    case OUT:
      expect.soft(answer.status, label).toBe(401);
      break;
    case SIG:
      // A session is no signature: refused whoever sends it.
      expect.soft(answer.status, label).toBeGreaterThanOrEqual(400);
      break;
  }
}

for (const who of PERSONAS) {
  test.describe(`as ${who}`, () => {
    test.use({ storageState: authFile(who) });

    test("every screen opens or is refused as the table says", async ({ page }, testInfo) => {
      test.setTimeout(budget(30_000 + screens.length * 10_000));
      const keys = new KeyWatch();
      keys.watch(page, who);
      for (const screen of screens) await checkScreen(page, who, screen);
      await keys.save(keyDir(testInfo), `${who}-screens`);
    });

    test("every API route answers or refuses as the table says", async ({ page }, testInfo) => {
      const keys = new KeyWatch();
      keys.watch(page, who);
      await page.goto(`/p/${project}`);
      // Reads first; writes get an empty body, which the guard refuses before any effect
      // and which validation refuses for an allowed role.
      const ordered = [...routes].sort((a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"));
      for (const route of ordered) await checkRoute(page, who, route, keys);
      await keys.save(keyDir(testInfo), `${who}-api`);
    });
  });
}

test.describe("as an admin limited to one project, in another project", () => {
  test.use({ storageState: authFile("limited-admin") });

  test("every project screen and API route answers 404, as for a project that does not exist", async ({ page }) => {
    expect(otherProject, "the demo seed registers two projects").toBeTruthy();
    test.setTimeout(budget(30_000 + screens.length * 10_000));
    const elsewhere = { ...values, project: otherProject };
    for (const screen of screens.filter((s) => inProject(s.pattern))) {
      const url = fill(screen.pattern, elsewhere);
      expect.soft(await visit(page, url), `${url}`).toBe(404);
    }
    for (const route of routes.filter((r) => inProject(r.pattern) && !r.signed)) {
      const url = fill(route.pattern, { project: otherProject });
      const answer = await api(page, route.method, url, withoutBody(route.method) ? undefined : {});
      expect.soft(answer.status, `${route.method} ${url} → ${answer.text.slice(0, 200)}`).toBe(404);
    }
  });
});

test.describe("signed out", () => {
  test("screens send to the sign-in page and API routes answer as the table says", async ({ page }) => {
    for (const screen of screens) {
      const url = fill(screen.pattern, values);
      await page.goto(url);
      await expect.soft(page, `${url} asks to sign in`).toHaveURL(/\/login(\?|$)/);
    }
    await visit(page, "/login");
    for (const route of routes) await checkRoute(page, "signed-out", route);
  });
});

/**
 * Once every persona above has opened every screen and called every API route, what they
 * received: the account-wide key appears nowhere (pages, data, scripts, headers, and the
 * scripts' source maps when the server has them), and every HTML answer carries a CSP.
 */
test("the account-wide key appears nowhere in what the browser receives", async ({ browser }, testInfo) => {
  const passes = PERSONAS.flatMap((who) => [`${who}-screens`, `${who}-api`]);
  const found = passes.map((pass) => ({ pass, findings: savedFindings(keyDir(testInfo), pass) }));
  expect(found.filter((f) => !f.findings).map((f) => f.pass), "passes above that did not finish (run the whole file)").toEqual([]);
  const all = found.flatMap((f) => (f.findings ? [f.findings] : []));
  const scripts = all.flatMap((f) => f.scripts);
  expect(scripts.length, "the personas' pages loaded Next's scripts").toBeGreaterThan(0);
  const request = (await browser.newContext({ storageState: { cookies: [], origins: [] } })).request;
  const maps = await leaksInSourceMaps(request, scripts);
  const crawled = all.reduce((sum, f) => sum + f.crawled, 0) + maps.maps;
  expect([...all.flatMap((f) => f.leaks), ...maps.leaks], `responses carrying the key (read ${crawled})`).toEqual([]);
  expect(all.flatMap((f) => f.htmlWithoutCsp), "HTML answers without a Content-Security-Policy").toEqual([]);
});
