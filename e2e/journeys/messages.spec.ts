import { clickWhenSettled, screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import {
  connectEventStreamIfOffered,
  expect,
  finalStatus,
  findInMessages,
  inProgress,
  project,
  projectPath,
  sendDirect,
  target,
  test,
  unique,
  verifiedDomain,
} from "./journey";
import { budget } from "../support/budget";

/** Support's questions about one message: did it arrive, why not, and where is it. */
test.use({ storageState: authFile("admin") });

const messagePath = (id: string) => projectPath(project, `messages/${encodeURIComponent(id)}`);
const outcome = (page: import("@playwright/test").Page) => page.getByRole("region", { name: "Outcome" });
const timeline = (page: import("@playwright/test").Page) => page.getByRole("list", { name: "Message timeline" });

test("a composed message's timeline reaches Delivered within 15 s, a time on every row, without a reload; search finds it", async ({ page }) => {
  const u = unique();
  const to = target.address.delivered(u);
  const subject = `Journey compose ${u}`;
  await connectEventStreamIfOffered(page);
  await visit(page, projectPath(project, "compose"));
  await page.getByLabel("From address").fill(`hello@${await verifiedDomain()}`);
  await page.locator("#to").fill(to);
  await page.locator("#to").press("Enter");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Plain text").fill("Hello from the journeys.");
  await page.getByRole("button", { name: "Review and send to 1 recipient" }).click();
  await clickWhenSettled(page, page.getByRole("dialog").getByRole("button", { name: "Send to 1 recipient" }));
  const sentAt = Date.now();
  await page.waitForURL(/\/messages\/[^/]+$/);
  const id = decodeURIComponent(page.url().split("/").pop()!);
  // Set on this document: still there at the end only if the page was never loaded again.
  await page.evaluate(() => ((window as unknown as { journeyMarker: number }).journeyMarker = 1));

  const rows = timeline(page).getByRole("listitem");
  // The row titled Delivered: other rows may mention the word (a recipient address "delivered+…").
  await expect(rows.filter({ has: page.getByText("Delivered", { exact: true }) })).toBeVisible({ timeout: Math.max(1_000, sentAt + 15_000 - Date.now()) });
  expect(await rows.count(), "the timeline shows the steps before delivery too").toBeGreaterThan(1);
  await expect(rows.filter({ hasNot: page.locator("time") }), "every timeline row carries its time").toHaveCount(0);
  await expect(outcome(page)).toContainText("Delivered");
  await expect(inProgress(page)).toBeHidden();
  expect(await page.evaluate(() => (window as unknown as { journeyMarker?: number }).journeyMarker), "the page was never reloaded").toBe(1);
  expect(target.truth.delivered, "the service says it was delivered").toContain(await finalStatus(id));
  await screenshot(page, `journey-${target.name}-delivered`);

  await findInMessages(page, subject, subject);
  await findInMessages(page, to, subject);
});

test("a bounce shows the reason the service gave", async ({ page }) => {
  const u = unique();
  const subject = `Journey bounce ${u}`;
  await connectEventStreamIfOffered(page);
  const id = await sendDirect(target.address.bounced(u), subject);
  await visit(page, messagePath(id));
  await expect(outcome(page)).toContainText("Bounced", { timeout: budget(15_000) });
  await expect(page.getByText(target.bounceReason).filter({ visible: true }).first()).toBeVisible();
  expect(target.truth.bounced, "the service says it bounced").toContain(await finalStatus(id));
  await screenshot(page, `journey-${target.name}-bounced`);
});

test("a message whose final status the dashboard does not know stops showing itself in progress", async ({ page }) => {
  test.setTimeout(budget(target.unfamiliarSettlesWithinMs + 60_000));
  const u = unique();
  const subject = `Journey unfamiliar ${u}`;
  const id = await sendDirect(target.address.unfamiliarFinal(u), subject);
  const status = await finalStatus(id);
  expect(status).toMatch(target.unfamiliarStatus);
  await visit(page, messagePath(id));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
  await expect(page.getByText(target.unfamiliarStatus).filter({ visible: true }).first()).toBeVisible();
  await expect(inProgress(page)).toBeHidden({ timeout: target.unfamiliarSettlesWithinMs });
  await expect(outcome(page)).not.toContainText("On its way");
  await screenshot(page, `journey-${target.name}-unfamiliar-final`);
});
