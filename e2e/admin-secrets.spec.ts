import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { api, expect, screenshot, signedIn, test, visit } from "./fixtures";
import { authFile, run } from "./support/run";
import { revealSecret, secretDialog } from "./support/secret-dialog";

/**
 * API keys and webhook signing secrets: shown once, then nowhere — not in the page, browser
 * storage, the dashboard's database, after a reload or Back. And the password asked again
 * when the admin's sign-in is older than REAUTH_MAX_AGE_S (the run sets a short one).
 */
const [project] = run.projects;
/** The harness should start the dashboard with REAUTH_MAX_AGE_S=15 (scripts/lib/stack.ts); an override reaches both. */
const REAUTH_S = Number(process.env.REAUTH_MAX_AGE_S ?? 15);

test.use({ storageState: authFile("admin") });

/** Everything the browser keeps for this origin, as text: the page, both storages, every IndexedDB record. */
async function browserTraces(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [document.documentElement.outerHTML, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve) => {
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result);
        });
        parts.push(JSON.stringify(all));
      }
      db.close();
    }
    return parts.join("\n");
  });
}

/** The dashboard's data folder (PGlite), a sibling of the service env file the harness wrote. */
function dashboardFilesContain(needle: string): string[] {
  const dir = path.join(path.dirname(process.env.E2E_SERVICE_ENV_FILE ?? ""), "dashboard");
  if (!existsSync(dir)) return [];
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (readFileSync(full).includes(needle)) hits.push(full);
    }
  };
  walk(dir);
  return hits;
}

test("an API key's secret is shown once, works, and is then nowhere in the dashboard", async ({ page }) => {
  expect(await visit(page, `/p/${project}/api-keys`)).toBe(200);
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill("E2E staging app");
  await form.getByText("Account-wide (every project)").click();
  await expect(form.getByRole("note")).toContainText("every project");
  await form.getByText("This project only").click();
  await form.getByRole("checkbox", { name: "domains:read" }).click();
  await form.getByRole("button", { name: "Create key" }).click();

  const dialog = await secretDialog(page, "API key “E2E staging app”");
  const secret = await revealSecret(dialog, "API key");
  expect(secret.length).toBeGreaterThan(16);
  await screenshot(page, "admin-key-secret");

  // Escape asks before closing; "Go back" keeps the secret on screen.
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("alert")).toContainText("Have you stored the API key");
  await dialog.getByRole("button", { name: "Go back" }).click();
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.getByRole("button", { name: "I have stored it, close" }).click();
  await expect(dialog).toBeHidden();

  // The key works against the service (project-scoped: no project header needed).
  const listed = await fetch(`${run.serviceURL}/v1/domains`, { headers: { Authorization: `Bearer ${secret}` } });
  expect(listed.status).toBe(200);

  await expect(page.getByRole("region", { name: "API keys" }).getByText("E2E staging app")).toBeVisible();
  expect(await browserTraces(page)).not.toContain(secret);
  await page.reload();
  await expect(page.getByRole("region", { name: "API keys" })).toBeVisible();
  expect(await browserTraces(page)).not.toContain(secret);
  await visit(page, `/p/${project}/webhooks`);
  await page.goBack();
  await expect(page.getByRole("region", { name: "API keys" })).toBeVisible();
  expect(await browserTraces(page)).not.toContain(secret);

  for (const route of [`/api/p/${project}/api-keys`, `/api/admin/audit?limit=100`]) {
    const answer = await api(page, "GET", route);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(secret);
  }
  expect(dashboardFilesContain(secret)).toEqual([]);
});

test("a webhook's signing secret is shown once, listed redacted, and the webhook deleted after naming its URL", async ({ page }) => {
  const url = `http://127.0.0.1:9/e2e-hook-${Date.now()}`;
  expect(await visit(page, `/p/${project}/webhooks`)).toBe(200);
  await page.getByRole("button", { name: "Add webhook" }).first().click();
  const form = page.getByRole("dialog", { name: "Add a webhook" });
  await form.getByLabel("Endpoint URL").fill(url);
  await expect(form.locator("[data-private-warning]")).toContainText("loopback");
  await form.getByRole("checkbox", { name: "All inbound events" }).click();
  await expect(form.getByRole("checkbox", { name: "inbound_received" })).toBeChecked();
  await form.getByRole("button", { name: "Add webhook" }).click();

  const dialog = await secretDialog(page, "Webhook signing secret");
  const secret = await revealSecret(dialog, "Signing secret");
  expect(secret.length).toBeGreaterThan(16);
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.getByRole("button", { name: "I have stored it, close" }).click();

  const row = page.getByRole("row").filter({ hasText: url });
  await expect(row).toBeVisible();
  await expect(row).toContainText("••••");
  expect(await browserTraces(page)).not.toContain(secret);
  const listed = await api(page, "GET", `/api/p/${project}/webhooks?limit=100`);
  expect(listed.text).toContain(url);
  expect(listed.text).not.toContain(secret);

  // The dashboard's own event stream is marked and cannot be deleted without its URL typed back.
  const items = (listed.json as { data: { id: string; url: string; isEventStream: boolean }[] }).data;
  const stream = items.find((w) => w.isEventStream);
  expect(stream, "the dashboard's event stream is listed").toBeTruthy();
  await expect(page.getByRole("row").filter({ hasText: stream!.url }).getByText("Dashboard event stream")).toBeVisible();
  const refused = await api(page, "DELETE", `/api/p/${project}/webhooks/${stream!.id}`, {});
  expect(refused.status).toBe(409);
  expect((refused.json as { error: { code: string } }).error.code).toBe("event_stream_protected");

  await row.getByRole("button", { name: `Delete webhook ${url}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete the webhook to ${url}?` });
  await expect(confirm).toContainText(url);
  await confirm.getByRole("button", { name: "Delete webhook" }).click();
  await expect(row).toBeHidden();
  expect(dashboardFilesContain(secret)).toEqual([]);
});

test("an admin signed in longer than the limit must confirm the password before creating a key", async ({ browser }) => {
  expect(REAUTH_S, "run with REAUTH_MAX_AGE_S set to a few seconds").toBeLessThanOrEqual(20);
  const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signedIn(page, run.admin.email, run.admin.password);
  const body = { name: "E2E fresh", reach: "project", scopes: ["emails:send"] };
  const fresh = await api(page, "POST", `/api/p/${project}/api-keys`, body);
  expect(fresh.status, fresh.text).toBe(201);
  expect(fresh.headers["cache-control"]).toMatch(/^no-store\b/);

  await page.waitForTimeout((REAUTH_S + 1) * 1000);
  const stale = await api(page, "POST", `/api/p/${project}/api-keys`, body);
  expect(stale.status, `the dashboard must run with REAUTH_MAX_AGE_S=${REAUTH_S}`).toBe(403);
  expect((stale.json as { error: { code: string } }).error.code).toBe("reauth_required");

  await visit(page, `/p/${project}/api-keys`);
  await page.getByRole("button", { name: "Create API key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill("E2E after reauth");
  await form.getByRole("button", { name: "Create key" }).click();
  const reauth = page.getByRole("dialog", { name: "Confirm it's you" });
  await expect(reauth).toBeVisible();
  await reauth.getByLabel("Password").fill("not the password");
  await reauth.getByRole("button", { name: "Confirm" }).click();
  await expect(reauth.getByText("password: is not correct")).toBeVisible();
  await reauth.getByLabel("Password").fill(run.admin.password);
  await reauth.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("dialog", { name: "API key “E2E after reauth”" })).toBeVisible();
});
