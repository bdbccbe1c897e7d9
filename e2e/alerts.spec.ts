import { randomBytes } from "node:crypto";
import { verifiedDomain } from "../scripts/lib/service-api";
import { api, expect, painted, screenshot, test, visit } from "./fixtures";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { authFile, run, SCREENSHOTS, serviceKey } from "./support/run";
import { pageAs, screenshotVariants } from "./support-helpers";
import { budget } from "./support/budget";

/**
 * Insight end to end: a project pushed over the bounce limit through the sandbox's bounce
 * addresses shows the banner on its screens and emails each admin once; engagement (an open
 * and a click with its link) reaches the overview, the timeline and the recipient view; the
 * provider that bounces is flagged. The harness sets ALERT_MIN_VOLUME=10, and this file's
 * marker, @e2e-fast-alerts, has its lane's dashboard check every 2 s (scripts/lib/e2e-lanes.ts).
 */
const project = run.projects[0]!;
const access = { serviceURL: run.serviceURL, key: serviceKey(), project };
const tag = randomBytes(3).toString("hex");

type Counts = { sent: number; bounced: number };
type Alerts = { active: { metric: string; level: string }[] };
type History = { history: { metric: string; kind: string; level: string; deliveries: { channel: string; target: string; status: string }[] }[] };

async function sendAll(to: string[], html = false): Promise<string[]> {
  const domain = await verifiedDomain(access);
  const emails = to.map((address, i) => ({
    from: { email: `insight@${domain}`, name: "Insight test" },
    to: [{ email: address }],
    subject: `Insight ${tag} ${i}`,
    ...(html ? { html: `<p>Our sale: <a href="https://shop.acme.test/sale?utm_source=e2e">see it</a></p>` } : { text: "Hello." }),
  }));
  const res = await fetch(`${run.serviceURL}/v1/emails/batch`, {
    method: "POST",
    headers: { Authorization: `Bearer ${access.key}`, "X-Service-Product": project, "Content-Type": "application/json" },
    body: JSON.stringify({ emails }),
  });
  expect(res.status).toBe(207);
  return ((await res.json()) as { data: { id: string }[] }).data.map((d) => d.id);
}

/** A part of a screen that scrolls inside the layout, where a full-page picture does not reach. */
const part = (locator: Locator, name: string) => locator.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });

/** The whole screen, in a window tall enough for it (the layout scrolls inside, not the page). */
async function tall(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 2000 });
  await painted(page);
  await screenshot(page, name);
  if (original) await page.setViewportSize(original);
}

test.use({ storageState: authFile("admin") });

test("engagement reaches the overview, the timeline and the recipient view", async ({ page }) => {
  const clicker = `clicked+${tag}@gmail.com`;
  const [clickedId] = await sendAll([clicker, `opened+${tag}@gmail.com`], true);
  // The click's link reaches the index through the event stream.
  await expect
    .poll(async () => ((await api(page, "GET", `/api/p/${project}/overview?range=24h`)).json as { topLinks: { link: string }[] }).topLinks.map((l) => l.link), { timeout: budget(30_000) })
    .toContain("https://shop.acme.test/sale");
  expect(await visit(page, `/p/${project}?range=24h`)).toBe(200);
  await expect(page.locator('[data-rate="Open rate"]')).toContainText("÷ delivered");
  await expect(page.locator('dl [data-metric="clicked"] dd')).not.toHaveText("0");
  const links = page.getByRole("region", { name: "Top clicked links" });
  await expect(links.getByRole("link", { name: /shop\.acme\.test\/sale/ })).toHaveAttribute("href", "https://shop.acme.test/sale");
  await page.getByRole("heading", { name: "Top clicked links" }).waitFor();
  await screenshotVariants(page, "insight-overview");
  await part(links, "insight-overview-top-links");
  await tall(page, "insight-overview-whole");

  // The timeline: the click, with the link it followed as a link.
  expect(await visit(page, `/p/${project}/messages/${encodeURIComponent(clickedId!)}`)).toBe(200);
  const click = page.locator('[data-event-type="click"]');
  await expect(click.getByRole("link", { name: /shop\.acme\.test\/sale/ }).first()).toHaveAttribute("href", /^https:\/\/shop\.acme\.test\/sale\?utm_source=e2e/);
  await screenshot(page, "insight-timeline-click");

  // The recipient view counts it.
  expect(await visit(page, `/p/${project}/recipients/${encodeURIComponent(clicker)}`)).toBe(200);
  const engagement = page.getByTestId("recipient-engagement");
  await expect(engagement.locator('[data-metric="opened"] dd')).toHaveText(/^1 /);
  await expect(engagement.locator('[data-metric="clicked"] dd')).toHaveText(/^1 /);
  await screenshot(page, "insight-recipient");
});

test("a project pushed over the bounce limit shows the banner and emails each admin once", async ({ page, browser }) => {
  // Its waits on the service's lifecycle and the alert evaluator alone may take 2 minutes (60 s + 30 s + 30 s).
  test.setTimeout(budget(150_000));
  // This file's lane checks every 2 s (its marker): at the dashboard's own 60 s, the waits below depend on where the check falls.
  expect(((await api(page, "GET", `/api/p/${project}/alerts`)).json as { checkEverySeconds: number }).checkEverySeconds).toBe(2);
  const counts = ((await api(page, "GET", `/api/p/${project}/overview?range=24h`)).json as { counts: { "24h": Counts } }).counts["24h"];
  // Mail that arrives elsewhere, so Yahoo has others to stand out from; then enough bounces for
  // 5 % of the last 24 hours, whatever the other tests (or the demo history) sent.
  const delivered = Array.from({ length: 12 }, (_, i) => `delivered+${tag}${i}@${i % 2 ? "gmail.com" : "outlook.com"}`);
  const needed = Math.max(12, Math.ceil((0.05 * (counts.sent + delivered.length) - counts.bounced) / 0.95) + 2);
  const bounces = Array.from({ length: Math.min(needed, 100) }, (_, i) => `bounce+${tag}${i}@yahoo.com`);
  await sendAll([...delivered, ...bounces]);
  await expect
    .poll(async () => ((await api(page, "GET", `/api/p/${project}/alerts/active`)).json as Alerts).active.map((a) => `${a.metric}-${a.level}`), { timeout: budget(60_000) })
    .toContain("bounce-limit");

  // The banner, on the overview and on another screen of the project, for any role.
  expect(await visit(page, `/p/${project}`)).toBe(200);
  const banner = page.getByRole("region", { name: "Deliverability alerts" });
  await expect(banner.locator('[data-alert="bounce-limit"]')).toContainText("Bounce rate over the 4% limit");
  const support = await pageAs(browser, "support");
  try {
    expect(await visit(support.page, `/p/${project}/messages`)).toBe(200);
    await expect(support.page.getByRole("region", { name: "Deliverability alerts" }).locator('[data-alert="bounce-limit"]')).toBeVisible();
    await screenshotVariants(support.page, "insight-banner");
  } finally {
    await support.close();
  }

  // One email per admin: the history lists each admin once, sent; the index holds one such email to the first admin.
  const crossing = async () => ((await api(page, "GET", `/api/p/${project}/alerts`)).json as History).history.find((h) => h.metric === "bounce" && h.level === "limit" && h.kind === "raised");
  await expect.poll(async () => (await crossing())?.deliveries.every((d) => d.status === "sent"), { timeout: budget(30_000) }).toBe(true);
  const emails = (await crossing())!.deliveries.filter((d) => d.channel === "email").map((d) => d.target);
  expect(emails).toContain(run.admin.email);
  expect(new Set(emails).size).toBe(emails.length);
  await expect
    .poll(async () => {
      const found = (await api(page, "GET", `/api/p/${project}/messages?q=${encodeURIComponent(run.admin.email)}`)).json as { data: { subject: string | null }[] };
      return found.data.filter((m) => /Bounce rate above the limit/.test(m.subject ?? "")).length;
    }, { timeout: budget(30_000) })
    .toBe(1);

  expect(await visit(page, `/p/${project}/alerts`)).toBe(200);
  const history = page.getByRole("region", { name: "History" });
  await expect(history.locator('[data-alert="raised"][data-metric="bounce"]').first()).toContainText("Bounce rate crossed the limit");
  await expect(page.locator('[data-metric="bounce"][data-level="limit"]').first()).toBeVisible();
  const settings = page.getByRole("region", { name: "Thresholds and notifications" });
  await expect(settings.locator('[data-setting="bounceLimit"] dd')).toHaveText("4%");
  await screenshotVariants(page, "insight-alerts");
  await part(history, "insight-alerts-history");
  await tall(page, "insight-alerts-whole");

  // The thresholds change in an editor that loads when asked for, and the change is shown once it closes.
  await settings.getByRole("button", { name: "Change" }).click();
  await expect(page.getByLabel("Bounce rate: limit")).toHaveValue("4");
  await expect(page.getByLabel("Bounce rate: warning")).toBeFocused();
  await page.getByLabel("Bounce rate: warning").fill("2.5");
  await part(settings, "insight-alerts-settings-editor");
  const save = async () => {
    const saved = page.waitForResponse((r) => r.url().endsWith("/alerts/settings") && r.request().method() === "PUT");
    await settings.getByRole("button", { name: "Save" }).click();
    expect((await saved).status()).toBe(200);
  };
  await save();
  await expect(page.getByText("Alert settings saved").first()).toBeVisible();
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings.locator('[data-setting="bounceWarning"] dd')).toHaveText("2.5%");
  await expect(settings.getByRole("button", { name: "Change" })).toBeFocused();
  // Back to the defaults, which the later specs' charts draw (warning 2%, limit 4%).
  await settings.getByRole("button", { name: "Change" }).click();
  await settings.getByRole("button", { name: "Use the defaults" }).click();
  await expect(page.getByLabel("Bounce rate: warning")).toHaveValue("2");
  await save();
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings.locator('[data-setting="bounceWarning"] dd')).toHaveText("2%");

  // The provider that bounces is flagged in words.
  expect(await visit(page, `/p/${project}/deliverability?range=24h`)).toBe(200);
  await expect(page.getByRole("region", { name: "Providers that stand out" })).toContainText(/Yahoo bounces [\d.]+% of mail/);
  await expect(page.locator('[data-provider="yahoo"] [data-metric="bounced"]')).toHaveAttribute("data-level", "limit");
  await screenshotVariants(page, "insight-deliverability");
  await tall(page, "insight-deliverability-whole");
});
