import { api, expect, expectNoSeriousA11yViolations, screenshot, signedIn, test, visit } from "./fixtures";
import { authFile, roleUser, run } from "./support/run";
import { createUser } from "./support/users";

const project = run.projects[0];
const STRICT_REFERRER = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];

test.describe("as admin", () => {
  test.use({ storageState: authFile("admin") });

  test("a cross-origin write is refused and changes nothing", async ({ page }) => {
    await page.goto(`/p/${project}`);
    const email = `cross-origin-${Date.now()}@e2e.test`;
    const body = { email, name: "Mallory", role: "admin", password: "cross-origin-password-1" };

    const evil = await api(page, "POST", "/api/admin/users", body, { Origin: "http://evil.example" });
    expect(evil.status, evil.text).toBe(403);
    expect((evil.json as { error?: { code?: string } }).error?.code).toBe("cross_origin");

    // Without Origin, a browser's Sec-Fetch-Site still tells a foreign page's request apart.
    const response = await page.request.post("/api/admin/users", {
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
      data: JSON.stringify(body),
    });
    expect(response.status()).toBe(403);

    const list = await api(page, "GET", "/api/admin/users");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(email);
  });

  test("pages and API responses carry the security headers", async ({ page }) => {
    const first = await page.goto(`/p/${project}`);
    const headers = first!.headers();
    const csp = headers["content-security-policy"] ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce, `CSP: ${csp}`).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(STRICT_REFERRER).toContain(headers["referrer-policy"]);
    expect(headers["cache-control"]).toContain("no-store");
    // Next's own scripts carry the nonce of this response, and the nonce changes per response.
    const html = await first!.text();
    expect(html).toContain(`nonce="${nonce}"`);
    const second = await page.request.get(`/p/${project}`);
    expect(second.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);

    const login = (await page.request.get("/login")).headers();
    expect(login["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(login["x-content-type-options"]).toBe("nosniff");

    const answer = await api(page, "GET", "/api/admin/users");
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toContain("no-store");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(STRICT_REFERRER).toContain(answer.headers["referrer-policy"]);
    // Served over http in this run: no HSTS (lib/server/http/security-headers.test.ts covers https).
    expect(headers["strict-transport-security"]).toBeUndefined();
  });

  test("every HTML answer carries the CSP: paths that end like files, 404s, redirects, the sign-in page", async ({ page }) => {
    await page.goto(`/p/${project}`);
    const paths = [
      `/p/${project}/recipients/a%40b.svg`,
      `/p/${project}/recipients/someone%40example.com.png`,
      "/no-such-page",
      "/no-such-page.js",
      "/styles.css",
      `/p/${project}/no-such-screen`,
      "/p/no-such-project",
      "/login",
    ];
    for (const path of paths) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      const headers = answer.headers();
      expect.soft(headers["content-security-policy"] ?? "", `${path} (HTTP ${answer.status()}, ${headers["content-type"]})`).toMatch(/frame-ancestors 'none'/);
      if ((headers["content-type"] ?? "").includes("text/html")) {
        expect.soft(headers["content-security-policy"] ?? "", `${path} allows only nonce'd scripts`).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      }
    }
    // Signed out too: the redirect to the sign-in page and the page it lands on.
    const anonymous = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } });
    for (const path of [`/p/${project}/recipients/a%40b.svg`, "/no-such-page.svg"]) {
      const answer = await anonymous.request.get(path, { maxRedirects: 0 });
      expect.soft(answer.headers()["content-security-policy"] ?? "", `${path} signed out (HTTP ${answer.status()})`).toMatch(/frame-ancestors 'none'/);
    }
    await anonymous.close();
    // The one public file gets a CSP that allows nothing (an SVG opened alone could run script).
    const favicon = await page.request.get("/favicon.svg");
    expect(favicon.headers()["content-security-policy"]).toContain("default-src 'none'");
  });
});

test.describe("an admin limited to one project", () => {
  test.use({ storageState: authFile("limited-admin") });

  test("cannot mint an account-wide key or widen its own grants, and the screens say why", async ({ page }) => {
    const [, otherProject] = run.projects;
    expect(await visit(page, `/p/${project}/api-keys`)).toBe(200);
    // The sidebar offers no admin screen.
    await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
    await page.getByRole("button", { name: "Create API key" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    await expect(dialog.getByRole("radio", { name: /account-wide/i })).toBeDisabled();
    await expect(dialog.getByText("Only an admin with access to every project may create an account-wide key.")).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /this project only/i })).toBeChecked();
    await expectNoSeriousA11yViolations(page, { soft: true });
    await screenshot(page, "limited-admin-create-key");
    await page.keyboard.press("Escape");

    // The server refuses whatever the screen shows: an account-wide key, any grant, another project.
    await api(page, "POST", "/api/auth/reconfirm", { password: roleUser("limited-admin").password });
    const wide = await api(page, "POST", `/api/p/${project}/api-keys`, { name: "escape", reach: "account", scopes: ["full_access"] });
    expect(wide.status, wide.text).toBe(403);
    const me = (await api(page, "GET", "/api/projects")).json as { data: { externalId: string }[] };
    expect(me.data.map((p) => p.externalId)).toEqual([project]);
    const list = await api(page, "GET", "/api/admin/users");
    expect(list.status).toBe(403);
    const self = await api(page, "PUT", "/api/admin/users/any/projects", { allProjects: true });
    expect(self.status).toBe(403);
    expect((await api(page, "GET", `/api/p/${otherProject}/messages`)).status).toBe(404);
    // What it may do: a key for its own project, tied to that project.
    const own = await api(page, "POST", `/api/p/${project}/api-keys`, { name: "own app", scopes: ["emails:send"] });
    expect(own.status, own.text).toBe(201);
    expect((own.json as { project: string | null }).project).toBe(project);
  });
});

test.describe("revoking API keys", () => {
  test.use({ storageState: authFile("admin") });

  test("an admin revokes a key from the API keys screen, and the service stops accepting it", async ({ page: rootPage, browser }) => {
    // A fresh admin, so creating a key does not first ask the password again.
    await rootPage.goto("/admin/users");
    const admin = await createUser(rootPage, "admin", "revoker");
    const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
    await signedIn(page, admin.email, admin.password);
    const created = await api(page, "POST", `/api/p/${project}/api-keys`, { name: "CI runner", scopes: ["suppressions:read"] });
    expect(created.status, created.text).toBe(201);
    const key = created.json as { id: string; secret: string };
    const useKey = async () => (await fetch(`${run.serviceURL}/v1/suppressions`, { headers: { Authorization: `Bearer ${key.secret}`, "X-Service-Product": project } })).status;
    expect(await useKey()).toBe(200);

    expect(await visit(page, `/p/${project}/api-keys`)).toBe(200);
    await expect(page.getByRole("note").filter({ hasText: /revoking/i })).toBeVisible();
    const row = page.locator(`tr[data-key-id="${key.id}"]`);
    await expect(row.getByText("Active")).toBeVisible();
    await row.getByRole("button", { name: "Revoke key CI runner" }).click();
    const confirm = page.getByRole("alertdialog", { name: /revoke the key “CI runner”/i });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(row.getByText("Revoked")).toBeVisible();
    await expect(page.getByRole("note").filter({ hasText: "Revoking a key here stops it at the email service at once." })).toBeVisible();
    await screenshot(page, "api-keys-revoked");
    expect(await useKey()).toBe(401);
    await page.context().close();
  });
});

// That the account-wide key appears nowhere in what the browser receives is checked in
// access.spec.ts, on the answers its personas receive while opening every screen and calling
// every API route (./support/key-nowhere.ts): a crawl of its own here opened the same screens again.
