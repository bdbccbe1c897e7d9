import path from "node:path";
import { startStack, type Stack } from "../scripts/lib/stack";
import { expect, screenshot, test, visit } from "./fixtures";
import { screenshotVariants } from "./support-helpers";
import { run } from "./support/run";
import { budget } from "./support/budget";

/**
 * Issue 13, a living demo: a fresh start of the bundled service with its 30-day history, and
 * the dashboard showing it from the first screen. The other specs run on the base demo (their
 * stack has the history off). The harness runs this one in a lane of its own whose stack has
 * the history on (@e2e-demo-history, scripts/lib/e2e-lanes.ts: started while the last lane
 * finishes, so the month is handed over beside it); run by itself, it starts such a stack.
 *
 * @e2e-alone: the harness runs this file after everything else of the run has ended
 * (scripts/lib/e2e-lanes.ts). The month is about 11,000 signed deliveries for the service to
 * send and the dashboard to take in, within the poll's ten minutes; beside three browser
 * lanes and the Postgres pass on two cores it did not arrive in time.
 */
test.describe.configure({ mode: "serial" });

const PROJECT = "acme-production";
/** The stack with the month: the lane's (E2E_DEMO_HISTORY, set by the harness), or one of this file's own. */
let stack: Pick<Stack, "baseURL" | "admin">;
let own: Stack | undefined;

test.beforeAll(async ({}, testInfo) => {
  if (process.env.E2E_DEMO_HISTORY === "1") {
    stack = run;
    return;
  }
  testInfo.setTimeout(budget(300_000));
  own = await startStack({ logDir: path.join("test-results", "e2e-logs", "demo"), demoHistory: true });
  stack = own;
});
test.afterAll(async () => {
  await own?.stop();
});

type Series = { at: string; sent: number; delivered: number; bounced: number }[];
type Overview = { counts: Record<"24h" | "7d" | "30d", { sent: number; delivered: number; bounced: number }>; series: Series };
type ListPage = { data: { id: string; status: string; subject: string | null }[]; nextCursor: string | null };
type Message = { events: { type: string; data?: Record<string, unknown> }[] };

const url = (p: string) => `${stack.baseURL}${p}`;
const daysWithMail = (series: Series) => series.filter((p) => p.sent > 0).length;

test("the demo's month shows on the overview, in Messages, with bounces and clicks", async ({ page }) => {
  // Generous: on a loaded 2-core machine the month takes minutes to arrive (about 11,000 signed deliveries).
  test.setTimeout(budget(720_000));
  // The month's stack's admin, on its address (the fixtures' sign-in targets the lane's stack, which may be another).
  await page.goto(url("/login"));
  await page.getByLabel("Email").fill(stack.admin.email);
  await page.getByLabel("Password").fill(stack.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  // The service hands the month over newest first; its oldest days arrive last.
  const overview = async () => (await (await page.request.get(url(`/api/p/${PROJECT}/overview?range=30d`))).json()) as Overview;
  await expect.poll(async () => daysWithMail((await overview()).series), { timeout: budget(600_000), intervals: [2_000] }).toBeGreaterThanOrEqual(29);

  expect(await visit(page, url(`/p/${PROJECT}?range=30d`))).toBe(200);
  for (const metric of ["sent", "delivered", "bounced"]) {
    const shown = Number((await page.locator(`dl [data-metric="${metric}"] dd`).innerText()).replace(/\D/g, ""));
    expect(shown, metric).toBeGreaterThan(metric === "bounced" ? 10 : 1000);
  }
  // One bar per day with delivered mail (a zero-height bar is not drawn).
  const bars = page.getByRole("list", { name: "Outcomes per day" }).locator('[data-testid="chart-bar-segment"][data-series="delivered"]');
  expect(await bars.count()).toBeGreaterThanOrEqual(29);
  await screenshotVariants(page, "demo-overview");

  // The month per mailbox provider: a bar per provider in each chart.
  expect(await visit(page, url(`/p/${PROJECT}/deliverability?range=30d`))).toBe(200);
  await expect(page.getByRole("list", { name: "Bounce rate by provider, one bar per provider" }).locator('[data-testid="chart-bar-segment"]').first()).toBeVisible();
  await screenshotVariants(page, "demo-deliverability");

  const messages = url(`/p/${PROJECT}/messages`);
  expect(await visit(page, messages)).toBe(200);
  await expect(page.locator("tbody tr[data-message-id]")).toHaveCount(20);
  await expect(page.getByRole("button", { name: "Older messages" })).toBeVisible();
  await screenshot(page, "demo-messages");

  // The bounced filter finds bounces, and one shows the mailbox provider's reason.
  expect(await visit(page, `${messages}?status=bounced`)).toBe(200);
  const bounced = page.locator("tbody tr[data-message-id]");
  expect(await bounced.count()).toBeGreaterThan(10);
  // One of the month's (not the seed's sandbox bounce@example.com): a provider's own words.
  const bouncedId = await bounced.filter({ hasNotText: "@example.com" }).first().getAttribute("data-message-id");
  expect(await visit(page, `${messages}/${bouncedId}`)).toBe(200);
  await expect(page.locator('[data-event-type="bounce"]')).toContainText(/Server said\s*5\d\d /);
  await screenshot(page, "demo-message-bounced");

  // A password reset someone opened and clicked: the timeline has both, with the link.
  const clicked = await findMessage(page, "Reset your Acme password", (m) => m.events.some((e) => e.type === "click"));
  expect(await visit(page, `${messages}/${clicked.id}`)).toBe(200);
  await expect(page.locator('[data-event-type="open"]').first()).toBeVisible();
  const click = page.locator('[data-event-type="click"]').first();
  await expect(click).toContainText("Link clicked");
  await expect(click.getByRole("link", { name: /https:\/\/acme\.test\/account\/reset\?token=/ })).toBeVisible();
  await screenshot(page, "demo-message-clicked");
});

/** The first indexed message matching `q` (newest first, a few pages at most) whose events pass `test`. */
async function findMessage(page: import("@playwright/test").Page, q: string, check: (m: Message) => boolean): Promise<{ id: string }> {
  let cursor: string | null = null;
  for (let pageNo = 0; pageNo < 5; pageNo++) {
    const query = new URLSearchParams({ q, status: "delivered", ...(cursor ? { cursor } : {}) });
    const list = (await (await page.request.get(url(`/api/p/${PROJECT}/messages?${query}`))).json()) as ListPage;
    for (const row of list.data) {
      const message = (await (await page.request.get(url(`/api/p/${PROJECT}/messages/${row.id}`))).json()) as Message;
      if (check(message)) return row;
    }
    cursor = list.nextCursor;
    if (!cursor) break;
  }
  throw new Error(`no message matching "${q}" passed the check`);
}
