import { api, expect, expectNoSeriousA11yViolations, expectRefused, screenshot, settle, signedIn, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { acceptedMessages, controlEvent, eventually, project, service, unique } from "./helpers/marketer";
import { ownDashboard } from "./helpers/restart";
import { budget } from "./support/budget";

/** 250 rows: rows 11, 101 and 201 malformed, rows 51 and 151 suppressed at the service. */
function csv(u: string) {
  const lines = ["email,first_name,plan"];
  for (let i = 1; i <= 250; i++) {
    let email = `row${i}+${u}@example.com`;
    if (i === 10 || i === 100 || i === 200) email = `row${i}-${u}-at-example.com`;
    if (i === 50 || i === 150) email = `suppressed${i}+${u}@example.com`;
    lines.push(`${email},Name${i},pro`);
  }
  return lines.join("\n");
}

test.describe("batch from a file", () => {
  test("250 rows with 3 malformed and 2 suppressed send 245; a restart halfway resumes and the service holds exactly 245", async ({ browser }) => {
    test.setTimeout(budget(240_000));
    const u = unique();
    for (const i of [50, 150]) await service("POST", "/v1/suppressions", { email: `suppressed${i}+${u}@example.com`, reason: "manual" });
    const seen = await acceptedMessages();
    // A dashboard of the test's own, slowed to one chunk at a time so it can be stopped halfway.
    const dash = await ownDashboard({ BATCH_WORKERS: "1", BATCH_CHUNK_PAUSE_MS: "3000", BATCH_LEASE_MS: "3000" });
    const context = await browser.newContext({ baseURL: dash.baseURL });
    try {
      await dash.start();
      const page = await context.newPage();
      await signedIn(page, dash.admin.email, dash.admin.password);
      await visit(page, `/p/${project}`);
      // Batches have a sidebar entry of their own.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches" }).click();
      await expect(page).toHaveURL(new RegExp(`/p/${project}/batches$`));
      await settle(page);
      await expectNoSeriousA11yViolations(page, { soft: true });
      await page.locator('input[type="file"]').setInputFiles({ name: "campaign.csv", mimeType: "text/csv", buffer: Buffer.from(csv(u)) });
      await expect(page.getByText("Read 250 rows")).toBeVisible();
      await page.getByLabel("Write the content (the same for everyone)").check();
      await page.getByLabel("Subject").fill(`Batch ${u}`);
      await page.getByLabel("Plain text").fill("Hello from a batch.");
      await page.getByRole("button", { name: "Check every row" }).click();
      await expect(page.getByTestId("check-result")).toContainText("245 will be sent");
      await expect(page.getByTestId("problem-row")).toHaveCount(5);
      await expect(page.getByTestId("problem-row").filter({ hasText: "suppressed" })).toHaveCount(2);
      await expect(page.getByTestId("problem-row").filter({ hasText: "must be an email address" })).toHaveCount(3);
      await screenshot(page, "marketer-batch-check");
      await page.getByRole("button", { name: "Send 245 messages" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Send 245 messages" }).click();
      await page.waitForURL(/\/batches\/[a-f0-9]+$/);
      const jobUrl = new URL(page.url()).pathname;
      const jobId = jobUrl.split("/").pop()!;
      // Stop the dashboard dead once the first chunk is in, before the job is done.
      const sentSoFar = async () => ((await api(page, "GET", `/api/p/${project}/batches/${jobId}`)).json as { counts: { sent: number } }).counts.sent;
      await eventually(async () => (await sentSoFar()) >= 100, 60_000, "the first chunk");
      await dash.kill();
      const beforeRestart = [...seen.recipients.keys()].filter((k) => k.endsWith(`+${u}@example.com`)).length;
      expect(beforeRestart).toBeLessThan(245);
      await dash.start();
      // The first request after a start may compile or warm the route; the check of the screen comes after.
      await page.request.get(jobUrl, { timeout: budget(120_000) });
      await visit(page, jobUrl);
      await expect(page.getByTestId("count-sent")).toHaveText("245", { timeout: budget(90_000) });
      await expect(page.getByTestId("count-invalid")).toHaveText("3");
      await expect(page.getByTestId("count-suppressed")).toHaveText("2");
      await screenshot(page, "marketer-batch-job");
      const results = await api(page, "GET", `/api/p/${project}/batches/${jobId}/results`);
      expect(results.text.trim().split("\r\n")).toHaveLength(251);
      await eventually(() => [...seen.recipients.keys()].filter((k) => k.endsWith(`+${u}@example.com`)).length >= 245, 120_000, "245 accepted events");
      // A message accepted after the job's has had its event delivered: a duplicate would have too.
      await controlEvent(seen, u);
      const ours = [...seen.recipients.entries()].filter(([k]) => k.endsWith(`+${u}@example.com`));
      expect(ours).toHaveLength(245);
      expect(ours.every(([, ids]) => ids.size === 1)).toBe(true);
    } finally {
      await context.close();
      await dash.dispose();
      await seen.close();
    }
  });
});

test.describe("as support", () => {
  test.use({ storageState: authFile("support") });
  test("support cannot start a batch, on the screen or by the route", async ({ page }) => {
    await expectRefused(page, await visit(page, `/p/${project}/batches`), "support on the batches screen");
    await expect(page.getByRole("button", { name: "Check every row" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches" })).toHaveCount(0);
    const body = { csv: "email\na@example.com", mapping: { email: "email", variables: {} }, content: { from: { email: "hello@acme.test" }, subject: "x", text: "x" }, confirmCount: 1 };
    const answer = await api(page, "POST", `/api/p/${project}/batches`, body);
    expect(answer.status).toBe(403);
    expect((await api(page, "POST", `/api/p/${project}/batches/check`, body)).status).toBe(403);
  });
});

test.describe("a batch that finishes while its screen is open", () => {
  test.use({ storageState: authFile("marketer") });
  test("shows every row's outcome once the job is done, without a reload", async ({ page }) => {
    const u = unique();
    await visit(page, `/p/${project}/batches`);
    // Two chunks (MAX_BATCH_SIZE is 100) and more rows than the screen's first page; no more,
    // as the service's worker sends them while the next spec's messages wait behind.
    const lines = ["email", ...Array.from({ length: 101 }, (_, i) => `open${i}+${u}@example.com`)];
    await page.locator('input[type="file"]').setInputFiles({ name: "open.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
    await expect(page.getByText("Read 101 rows")).toBeVisible();
    await page.getByLabel("Write the content (the same for everyone)").check();
    await page.getByLabel("Subject").fill(`Open ${u}`);
    await page.getByLabel("Plain text").fill("Hello.");
    await page.getByRole("button", { name: "Check every row" }).click();
    await page.getByRole("button", { name: "Send 101 messages" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Send 101 messages" }).click();
    await page.waitForURL(/\/batches\/[a-f0-9]+$/);
    await expect(page.getByTestId("count-sent")).toHaveText("101", { timeout: budget(60_000) });
    // The rows were polled while the job ran and the last poll came before the job was done:
    // they stayed "Pending" until a reload.
    await expect(page.getByTestId("job-row")).toHaveCount(100);
    await expect(page.getByTestId("job-row").filter({ hasText: "Pending" })).toHaveCount(0);
    await expect(page.getByTestId("job-row").filter({ hasText: "Sent" })).toHaveCount(100);
  });
});
