import { randomBytes } from "node:crypto";
import path from "node:path";
import { api, expect, screenshot, test, visit } from "./fixtures";
import { authFile, run, SCREENSHOTS } from "./support/run";
import { budget } from "./support/budget";

/** Domains: add one, read its records with working copy buttons, watch it verify without a reload. */
const [project] = run.projects;

test.use({ storageState: authFile("admin"), permissions: ["clipboard-read", "clipboard-write"] });

test("adding a .test domain shows its records with copy buttons, and it verifies without a reload", async ({ page }) => {
  const name = `e2e-${randomBytes(3).toString("hex")}.test`;
  expect(await visit(page, `/p/${project}/domains`)).toBe(200);

  await page.getByRole("button", { name: "Add domain" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add a domain" });
  await dialog.getByLabel("Domain").fill("https://nope");
  await expect(dialog.getByText("without https://")).toBeVisible();
  await dialog.getByLabel("Domain").fill(name.toUpperCase());
  await dialog.getByRole("button", { name: "Add domain" }).click();

  await page.waitForURL(new RegExp(`/p/${project}/domains/[^/]+$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  const sending = page.getByRole("region", { name: "Sending DNS records" }).getByRole("table");
  await expect(sending.getByRole("row")).toHaveCount(5);
  await expect(page.getByRole("region", { name: "Receiving DNS records" }).getByText("inbound.mailservice.localhost")).toBeVisible();

  // The relative host of the DKIM record, as a DNS panel wants it, copied with one click.
  const dkimRow = sending.locator('[data-record-purpose="dkim"]');
  const relative = (await dkimRow.locator("[data-host-relative]").textContent())!.trim();
  expect(relative).toMatch(/^svc[0-9a-f]+\._domainkey$/);
  await dkimRow.getByRole("button", { name: `Copy host ${relative}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(relative);
  const value = (await dkimRow.locator("[data-record-value]").textContent())!.trim();
  await dkimRow.getByRole("button", { name: "Copy DKIM value" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

  // The zone-file snippet downloads with every record.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Zone file" }).click()]);
  const zone = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
  expect(zone).toContain(`$ORIGIN ${name}.`);
  expect(zone).toContain(`${relative}\t3600\tIN\tTXT`);

  // The sandbox verifies .test names by itself; the screen notices without a reload (a marker
  // set on this document survives only if the page was not loaded again).
  await page.evaluate(() => ((window as unknown as { e2eMarker: number }).e2eMarker = 1));
  await expect(page.locator('h1 [data-status="verified"]')).toBeVisible({ timeout: budget(30_000) });
  await expect(page.getByRole("heading", { name: "Live DNS check" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: number }).e2eMarker)).toBe(1);
  await screenshot(page, "admin-domain-detail");

  // Opened afresh, the first live DNS check comes with the page: the screen does not ask the
  // check route (nor load the answer's parser, zod) until a re-check.
  const checkCalls: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith("/check")) checkCalls.push(r.url());
  });
  await visit(page, page.url());
  await expect(page.locator("li[data-check-status]").first()).toBeVisible();
  expect(checkCalls).toEqual([]);
  await page.locator('section[aria-labelledby="dns-check-title"]').screenshot({ path: path.join(SCREENSHOTS, "admin-domain-dns-check.png") });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect.poll(() => checkCalls.length).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Check now" })).toBeEnabled();
  await expect(page.locator("li[data-check-status]").first()).toBeVisible();

  // The list shows it, and the status filter lives in the URL.
  await visit(page, `/p/${project}/domains?status=verified`);
  await expect(page.getByRole("link", { name })).toBeVisible();
  const answer = await api(page, "GET", `/api/p/${project}/domains?status=pending`);
  expect((answer.json as { data: { domain: string }[] }).data.map((d) => d.domain)).not.toContain(name);
});
