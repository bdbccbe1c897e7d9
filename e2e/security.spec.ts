import type { Page, Response } from "@playwright/test";
import { ROLES } from "../lib/permissions";
import { api, expect, settle, test } from "./fixtures";
import { sampleValues } from "./support/records";
import { apiRoutes, fill, screenRoutes } from "./support/routes";
import { authFile, run, serviceKey } from "./support/run";

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
  });
});

/** Everything the browser received while a page was open: bodies and headers. */
function recordResponses(page: Page, into: Map<string, string>, pending: Promise<void>[]) {
  page.on("response", (response: Response) => {
    pending.push(
      (async () => {
        const head = JSON.stringify(await response.allHeaders());
        // Redirects and aborted requests have no body; an unused router prefetch may never end.
        const body = await Promise.race([
          response.body().then((b) => b.toString("utf8")).catch(() => ""),
          new Promise<string>((resolve) => setTimeout(() => resolve(""), 5_000)),
        ]);
        into.set(`${response.request().method()} ${response.url()}`, head + body);
      })(),
    );
  });
}

test("the account-wide key appears nowhere in what the browser receives", async ({ browser }) => {
  test.setTimeout(300_000);
  const key = serviceKey();
  const values = await sampleValues(project);
  // The key, and its tail alone in case a prefix is shown on purpose somewhere.
  const needles = [key, key.slice(-16)];
  const seen = new Map<string, string>();
  const pending: Promise<void>[] = [];

  for (const role of ROLES) {
    const context = await browser.newContext({ storageState: authFile(role) });
    const page = await context.newPage();
    recordResponses(page, seen, pending);
    // The same screens access.spec.ts opens (and checks with axe) for each role.
    for (const screen of screenRoutes().filter((s) => s.allowed(role))) {
      await page.goto(fill(screen.pattern, values));
      await settle(page);
    }
    for (const route of apiRoutes().filter((r) => r.method === "GET")) {
      const answer = await api(page, "GET", fill(route.pattern, values));
      seen.set(`GET ${route.pattern} (${role})`, JSON.stringify(answer.headers) + answer.text);
    }
    await context.close();
  }
  await Promise.all(pending);

  // Every script the pages loaded, and a source map beside each if the server has one.
  const scripts = [...seen.keys()].map((k) => k.split(" ")[1]).filter((url) => url?.includes("/_next/static/"));
  expect(scripts.length, "the crawl loaded Next's scripts").toBeGreaterThan(0);
  const request = (await browser.newContext({ storageState: { cookies: [], origins: [] } })).request;
  for (const url of scripts.filter((u) => u.endsWith(".js"))) {
    const map = await request.get(`${url}.map`);
    if (map.ok()) seen.set(`GET ${url}.map`, await map.text());
  }

  const leaks = [...seen.entries()].filter(([, text]) => needles.some((n) => text.includes(n))).map(([where]) => where);
  expect(leaks, `responses carrying the key (crawled ${seen.size})`).toEqual([]);
});
