import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type Page } from "@playwright/test";
import type { Role } from "../lib/permissions";
import { verifiedDomain } from "../scripts/lib/service-api";
import { budget } from "./support/budget";
import { authFile, run, serviceKey } from "./support/run";

/**
 * Direct calls to the local service for the support specs (as a customer's back end would
 * send mail), and a wait for the dashboard's index to hear about them through its webhook.
 */
export const project = run.projects[0]!;
const access = () => ({ serviceURL: run.serviceURL, key: serviceKey(), project });
const headers = () => ({ Authorization: `Bearer ${serviceKey()}`, "X-Service-Product": project, "Content-Type": "application/json" });

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function send(fields: {
  to: string;
  subject: string;
  text?: string;
  scheduledAt?: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}): Promise<string> {
  const domain = await verifiedDomain(access());
  const response = await fetch(`${run.serviceURL}/v1/emails`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ from: { email: `support@${domain}`, name: "Acme support" }, to: [{ email: fields.to }], subject: fields.subject, text: fields.text ?? "Hello.", scheduledAt: fields.scheduledAt, attachments: fields.attachments }),
  });
  if (response.status !== 202) throw new Error(`POST /v1/emails: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

export async function receivingAddress(): Promise<string> {
  return `help@${await verifiedDomain(access())}`;
}

type Suppression = { email: string; reason: string; messageId?: string | null };

/**
 * Every suppression of the project, as the service lists them (newest first), page by page:
 * a spec earlier in the same lane may have added hundreds (admin-bulk-suppressions.spec.ts),
 * which pushed the seed's bounce past a first page of 100.
 */
export async function suppressions(): Promise<Suppression[]> {
  const all: Suppression[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const query = new URLSearchParams({ limit: "100", ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${run.serviceURL}/v1/suppressions?${query}`, { headers: headers() });
    const body = (await response.json()) as { data: Suppression[]; nextCursor: string | null };
    all.push(...body.data);
    cursor = body.nextCursor;
    if (!cursor) return all;
  }
  throw new Error("more than 10,000 suppressions: the test project is not what these specs expect");
}

export const messagesPath = `/p/${encodeURIComponent(project)}/messages`;
export const messagePath = (id: string) => `${messagesPath}/${encodeURIComponent(id)}`;

/**
 * Waits until the messages screen at `query` shows `count` rows (the webhook is asynchronous: as
 * long as `waitForStatus` allows the service's queue). It asks the list's own route until the
 * index holds them, then opens the screen once: the route runs the screen's search (the same
 * query schema, lib/schemas/messages-index.ts, and the same server function), and each reload
 * of the screen costs the browser and the dashboard about half a second of CPU, in a wait that
 * took 55 s in a busy lane.
 */
export async function waitForRows(page: Page, query: string, count: number, timeoutMs = budget(90_000)): Promise<void> {
  const listed = async () => {
    const response = await page.request.get(`/api/p/${encodeURIComponent(project)}/messages?${query}`);
    if (!response.ok()) throw new Error(`GET the message list ?${query}: HTTP ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { data: unknown[] }).data.length;
  };
  await expect.poll(listed, { timeout: timeoutMs, intervals: [250, 500], message: `${count} indexed messages for ?${query}` }).toBe(count);
  await page.goto(`${messagesPath}?${query}`);
  await expect(page.locator("tbody tr[data-message-id]"), `the messages screen at ?${query}`).toHaveCount(count);
}

/**
 * Like `visit` from fixtures, with the axe check leaving out the sandboxed email frame: its
 * content is the sender's, not ours, and axe-core/playwright hangs on frames that may not run
 * scripts (it cannot inject itself there).
 */
export async function visitChecked(page: Page, target: string): Promise<number> {
  const response = await page.goto(target);
  await page.waitForLoadState("networkidle");
  await checkA11y(page);
  return response?.status() ?? 0;
}

export async function checkA11y(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).exclude("iframe[sandbox]").analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  expect(serious, `accessibility of ${new URL(page.url()).pathname}`).toEqual([]);
}

/** A second signed-in user beside the test's own page (its own context, so axe can open pages in it). */
export async function pageAs(browser: Browser, role: Role): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ storageState: authFile(role) });
  return { page: await context.newPage(), close: () => context.close() };
}

/** Light and dark, at 1280 and 1024 px, for people reviewing the screens (test-results/screenshots/). */
export async function screenshotVariants(page: Page, name: string): Promise<void> {
  const { painted, screenshot } = await import("./fixtures");
  const original = page.viewportSize();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await painted(page);
      await screenshot(page, `${name}-${scheme}-${width}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (original) await page.setViewportSize(original);
}
