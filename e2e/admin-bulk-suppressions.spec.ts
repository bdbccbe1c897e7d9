import { randomBytes } from "node:crypto";
import { api, expect, expectNoSeriousA11yViolations, screenshot, settle, test, visit } from "./fixtures";
import { authFile, run } from "./support/run";
import { budget } from "./support/budget";

/**
 * Suppressions in bulk (issue 28, part 4), as support: a pasted list with bad lines and
 * repeats, then a CSV file, each checked, confirmed (the dialog says the interface cannot
 * remove a suppression), added by the background job while its progress shows, and read back
 * from the list. Screenshots at desktop size and at 390x844.
 */
const [project] = run.projects;
const PHONE = { width: 390, height: 844 };

test.use({ storageState: authFile("support") });

/** The project's suppressions as the dashboard exports them: address → reason. */
async function listed(page: import("@playwright/test").Page): Promise<Map<string, string>> {
  const csv = await api(page, "GET", `/api/p/${project}/suppressions/export`);
  expect(csv.status).toBe(200);
  return new Map(csv.text.split(/\r?\n/).slice(1).filter(Boolean).map((line) => line.split(",") as [string, string]));
}

test("a pasted list and a CSV file are checked, confirmed and added in the background", async ({ page }) => {
  test.setTimeout(budget(120_000));
  const u = randomBytes(3).toString("hex");
  const old = `old-${u}@example.com`;
  expect((await api(page, "POST", `/api/p/${project}/suppressions`, { email: old, reason: "bounce" })).status).toBe(201);

  expect(await visit(page, `/p/${project}/suppressions`)).toBe(200);
  await page.getByRole("link", { name: "Add in bulk" }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${project}/suppressions/bulk$`));
  await expect(page.getByRole("heading", { name: "Add suppressions in bulk" })).toBeVisible();
  await settle(page);
  await expectNoSeriousA11yViolations(page, { soft: true });

  // A pasted list: line 2 is not an address, line 3 repeats line 1, line 4 is already suppressed, line 6 has an unknown reason.
  const pasted = [`ada-${u}@example.com`, "not-an-address", `ADA-${u}@example.com`, old, `grace-${u}@example.com,complaint`, `bob-${u}@example.com,spite`, `eve-${u}@example.com`].join("\n");
  await page.getByLabel("Or paste rows").fill(pasted);
  await expect(page.getByText("Read 7 rows")).toBeVisible();
  await page.getByRole("button", { name: "Check the list" }).click();
  const result = page.getByTestId("check-result");
  await expect(result).toContainText("7 addresses read: 3 to add, 1 already suppressed, 1 repeated");
  await expect(page.getByTestId("problem-row")).toHaveCount(4);
  await expect(page.getByTestId("problem-row").nth(0)).toContainText("2");
  await expect(page.getByTestId("problem-row").filter({ hasText: "repeats line 1" })).toHaveCount(1);
  await expect(page.getByTestId("problem-row").filter({ hasText: "already suppressed" })).toContainText(old);
  await expect(page.getByTestId("problem-row").filter({ hasText: "reason: must be one of" })).toContainText("6");
  await screenshot(page, "admin-bulk-suppressions-check");

  await page.getByRole("button", { name: "Add 3 suppressions…" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("The dashboard cannot remove a suppression");
  await expectNoSeriousA11yViolations(page, { soft: true });
  await confirm.getByRole("button", { name: "Add 3 suppressions" }).click();
  await page.waitForURL(/\/suppressions\/bulk\/[a-f0-9]+$/);
  await expect(page.getByText("Finished")).toBeVisible({ timeout: budget(30_000) });
  await expect(page.getByTestId("count-sent")).toHaveText("3");
  await expect(page.getByTestId("count-suppressed")).toHaveText("1");
  await expect(page.getByTestId("count-duplicate")).toHaveText("1");
  await expect(page.getByTestId("count-invalid")).toHaveText("2");
  // The job's page survives a reload: it is the job's own address.
  await page.reload();
  await expect(page.getByTestId("count-sent")).toHaveText("3");
  await expect(page.getByTestId("job-row").filter({ hasText: `grace-${u}` })).toContainText("Added");
  await expect(page.getByTestId("job-row").filter({ hasText: old })).toContainText("Already suppressed");
  await screenshot(page, "admin-bulk-suppressions-job");

  // A CSV file with a header and a reason column, large enough to watch its progress.
  const rows = Array.from({ length: 300 }, (_, i) => `csv${i + 1}-${u}@example.com,${i % 3 === 0 ? "unsubscribe" : ""}`);
  await visit(page, `/p/${project}/suppressions/bulk`);
  await page.locator('input[type="file"]').setInputFiles({ name: `list-${u}.csv`, mimeType: "text/csv", buffer: Buffer.from(["email,reason", ...rows].join("\n")) });
  await expect(page.getByText("Read 300 rows")).toBeVisible();
  await page.getByLabel("Reason for lines that name none").selectOption("complaint");
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(result).toContainText("300 addresses read: 300 to add");
  await page.getByRole("button", { name: "Add 300 suppressions…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Add 300 suppressions" }).click();
  await page.waitForURL(/\/suppressions\/bulk\/[a-f0-9]+$/);
  await expect(page.getByRole("progressbar", { name: "Job progress" })).toBeVisible();
  await expect(page.getByText("Finished")).toBeVisible({ timeout: budget(60_000) });
  await expect(page.getByRole("progressbar", { name: "Job progress" })).toHaveAttribute("aria-valuenow", "300");
  await expect(page.getByTestId("count-sent")).toHaveText("300");

  // Read back from the list: each address once, with its own reason or the default.
  const list = await listed(page);
  expect(list.get(`ada-${u}@example.com`)).toBe("manual");
  expect(list.get(`grace-${u}@example.com`)).toBe("complaint");
  expect(list.get(`eve-${u}@example.com`)).toBe("manual");
  expect(list.get(old)).toBe("bounce");
  expect(list.has(`bob-${u}@example.com`)).toBe(false);
  for (let i = 1; i <= 300; i++) expect(list.get(`csv${i}-${u}@example.com`)).toBe((i - 1) % 3 === 0 ? "unsubscribe" : "complaint");

  // At phone size: the form with its check, and the job.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("count-sent")).toHaveText("300");
  await screenshot(page, "admin-bulk-suppressions-job-390");
  await visit(page, `/p/${project}/suppressions/bulk`);
  await page.getByLabel("Or paste rows").fill(pasted);
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(result).toContainText("7 addresses read: 0 to add");
  await screenshot(page, "admin-bulk-suppressions-check-390");
});
