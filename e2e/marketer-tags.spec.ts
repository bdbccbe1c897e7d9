import { sendMessage } from "../scripts/lib/service-api";
import { api, expect, expectNoSeriousA11yViolations, phoneFits, test, visit } from "./fixtures";
import { authFile, run, serviceKey } from "./support/run";
import { budget } from "./support/budget";

/**
 * The Tags screen (issue 30): mail sent through the service with a tag value no other run
 * used shows up as its own row with its figures, sorts, fits a phone, and links to its
 * messages on the Messages screen (the search `tag:name=value`).
 */
const project = run.projects[1] ?? run.projects[0];
type TagRow = { name: string; value: string; sent: number; delivered: number; bounced: number };

test.use({ storageState: authFile("marketer") });

test("a fresh tag's row shows its figures, sorts, fits a phone and links to its messages", async ({ page }) => {
  const value = `e2e-${Date.now().toString(36)}`;
  const tag = `category=${value}`;
  const access = { serviceURL: run.serviceURL, key: serviceKey(), project };
  const ids: string[] = [];
  // A bounce address of this run only: a bounce suppresses its address (admin-overview.spec.ts,
  // in the same project and maybe the same lane, bounces too), and a suppressed send is no bounce.
  for (const to of ["delivered@example.com", "delivered@example.com", `bounce+${value}@example.com`]) {
    ids.push(await sendMessage(access, { to, subject: `Tags ${value}`, tags: [{ name: "category", value }] }));
  }
  const read = async () => {
    const rows = ((await api(page, "GET", `/api/p/${project}/insight/tags?range=24h`)).json as { tags: TagRow[] }).tags;
    const row = rows.find((r) => r.name === "category" && r.value === value);
    return row ? { sent: row.sent, delivered: row.delivered, bounced: row.bounced } : null;
  };
  await expect.poll(read, { timeout: budget(30_000) }).toEqual({ sent: 3, delivered: 2, bounced: 1 });

  expect(await visit(page, `/p/${project}/tags?range=24h`)).toBe(200);
  await expect(page.getByRole("heading", { name: "Tags", level: 1 })).toBeVisible();
  const row = page.locator(`tr[data-tag="${tag}"]`);
  await expect(row.locator('[data-metric="sent"]')).toHaveText("3");
  await expect(row.locator('[data-metric="delivered"]')).toHaveText("2");
  await expect(row.locator('[data-metric="bounced"]')).toContainText("33.3%");

  // Sorted by bounce rate, highest first, kept in the URL.
  await page.getByRole("button", { name: "Bounced" }).click();
  await expect(page).toHaveURL(/sort=bounceRate/);
  await expect(page.getByRole("columnheader", { name: "Bounced" })).toHaveAttribute("aria-sort", "descending");
  await expectNoSeriousA11yViolations(page);
  // A phone too: the table scrolls inside its own box, the page does not scroll sideways.
  await phoneFits(page, "marketer-tags");

  // The row's link: Messages searching for the tag, listing the three messages.
  await row.getByRole("link", { name: tag }).click();
  await page.waitForURL(/\/messages\?q=/);
  await expect(page.getByLabel("Search messages")).toHaveValue(`tag:${tag}`);
  for (const id of ids) await expect(page.locator(`tr[data-message-id="${id}"]`)).toBeVisible();
  await expect(page.locator("tr[data-message-id]")).toHaveCount(3);
});
