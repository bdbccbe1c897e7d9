import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, painted, screenshot, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { pageAs, project, send, unique, waitForRows } from "./support-helpers";

/**
 * Issue 28, exports: the Export menu on Messages (with a query), a recipient, Contacts,
 * Suppressions and the audit log downloads the whole current search; each file is opened and
 * its rows counted.
 */
test.use({ storageState: authFile("support") });

/** Clicks Export → `format` and returns the downloaded file's data rows (the CSV header left out). */
async function exportRows(page: Page, format: "CSV" | "NDJSON"): Promise<string[]> {
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: new RegExp(`^${format}`) }).click();
  const file = await (await download).path();
  const lines = (await readFile(file, "utf8")).replace(/^\ufeff/, "").split(/\r?\n/).filter(Boolean);
  return format === "CSV" ? lines.slice(1) : lines;
}

test("exports every row of the current search, a recipient, contacts, suppressions and the audit log", async ({ page, browser }) => {
  const word = unique();
  const to = `export-${word}@example.com`;
  const ids = [await send({ to, subject: `Export ${word} one` }), await send({ to, subject: `=Export ${word} two` })];
  await waitForRows(page, `q=${encodeURIComponent(`"${word}"`)}`, 2);

  // Messages with a query: exactly its two messages, whatever page the screen shows.
  const csv = await exportRows(page, "CSV");
  expect(csv).toHaveLength(2);
  for (const id of ids) expect(csv.join("\n")).toContain(id);
  expect(csv.join("\n")).toContain(`'=Export ${word} two`);
  const ndjson = (await exportRows(page, "NDJSON")).map((l) => JSON.parse(l) as { id: string; to: string[] });
  expect(ndjson.map((r) => r.id).sort()).toEqual([...ids].sort());
  expect(ndjson[0]!.to).toEqual([to]);

  await page.getByRole("button", { name: "Export", exact: true }).click();
  await painted(page);
  await screenshot(page, "support-export-menu-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  await screenshot(page, "support-export-menu-390");
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A recipient's messages.
  expect(await visit(page, `/p/${encodeURIComponent(project)}/recipients/${encodeURIComponent(to)}`)).toBe(200);
  expect(await exportRows(page, "CSV")).toHaveLength(2);

  // Contacts: as many rows as the screen counts.
  expect(await visit(page, `/p/${encodeURIComponent(project)}/contacts`)).toBe(200);
  const total = Number((await page.getByText(/^\d+ contacts?$/).textContent())!.split(" ")[0]);
  expect(await exportRows(page, "CSV")).toHaveLength(total);

  // Suppressions: as many as the service lists (the seed has some).
  expect(await visit(page, `/p/${encodeURIComponent(project)}/suppressions`)).toBe(200);
  const suppressed = await exportRows(page, "NDJSON");
  expect(suppressed.length).toBeGreaterThan(0);
  expect(JSON.parse(suppressed[0]!)).toHaveProperty("email");

  // The audit log (admins): the exports above, each with its row count.
  const admin = await pageAs(browser, "admin");
  expect(await visit(admin.page, `/admin/audit?action=export.messages`)).toBe(200);
  const audit = (await exportRows(admin.page, "NDJSON")).map((l) => JSON.parse(l) as { action: string; detail: string });
  expect(audit.length).toBeGreaterThanOrEqual(2);
  expect(audit.every((e) => e.action === "export.messages")).toBe(true);
  expect(audit.some((e) => e.detail.includes(`"rows":2`) && e.detail.includes(word))).toBe(true);
  await admin.close();
});

test("a long export shows the rows written so far and can be cancelled", async ({ browser }) => {
  const { page, close } = await pageAs(browser, "admin");
  expect(await visit(page, "/admin/audit")).toBe(200);
  // Once at full speed: the menu's and the download's code are loaded before the network slows.
  expect((await exportRows(page, "CSV")).length).toBeGreaterThan(0);
  // The audit log's file at 256 bytes a second (Chromium's own throttling): long enough to watch.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: 256, uploadThroughput: -1 });
  let downloaded = false;
  page.on("download", () => (downloaded = true));
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await page.getByRole("menuitem", { name: /^CSV/ }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Exporting… [\d,]+ rows/ })).toBeVisible();
  const cancel = page.getByRole("button", { name: "Cancel export" });
  await expect(cancel).toBeVisible();
  await painted(page);
  await screenshot(page, "support-export-progress-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  await screenshot(page, "support-export-progress-390");
  await cancel.click();
  await expect(page.getByText("Export cancelled")).toBeVisible();
  await expect(page.getByRole("button", { name: "Export", exact: true })).toBeVisible();
  expect(downloaded).toBe(false);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await close();
});
