import { api, expect, screenshot, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { project, unique, waitForStatus } from "./helpers/marketer";
import { budget } from "./support/budget";

test.use({ storageState: authFile("marketer") });

test("a contact created, unsubscribed by a complaint and resubscribed shows each state; the audit log records the resubscribe", async ({ page, browser }) => {
  // waitForStatus alone may take 90 s (the service steps its sandbox lifecycle through its one job queue).
  test.setTimeout(budget(150_000));
  const u = unique();
  const email = `complaint+${u}@example.com`;
  await visit(page, `/p/${project}/contacts`);
  await page.getByRole("button", { name: "Create contact" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("First name").fill("Cleo");
  await dialog.getByRole("button", { name: "Add field" }).click();
  await dialog.getByLabel("Metadata 1 name").fill("plan");
  await dialog.getByLabel("Metadata 1 value").fill("pro");
  await dialog.getByRole("button", { name: "Create contact" }).click();
  await page.waitForURL(/\/contacts\/[^/]+$/);
  const contactUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("subscription-state")).toContainText("Subscribed");

  // A message to the sandbox complaint@ address: the complaint unsubscribes the contact in the service.
  const sent = await api(page, "POST", `/api/p/${project}/emails`, { from: { email: "hello@acme.test" }, to: [{ email }], subject: "Hi", text: "Hi" }, { "Idempotency-Key": `e2e-${u}` });
  expect(sent.status, sent.text).toBe(202);
  await waitForStatus((sent.json as { id: string }).id, ["complained"]);
  await visit(page, contactUrl);
  await expect(page.getByTestId("subscription-state")).toContainText("Unsubscribed");

  await visit(page, `/p/${project}/contacts?q=${encodeURIComponent(`complaint+${u}`)}`);
  await expect(page.getByRole("link", { name: email })).toBeVisible();
  await page.getByRole("link", { name: email }).click();
  await page.getByRole("button", { name: "Resubscribe" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Resubscribe" }).click();
  await expect(page.getByText(/Reason: .*say why/)).toBeVisible();
  await page.getByLabel("Reason").fill(`Asked to be added back (ticket ${u})`);
  await page.getByRole("dialog").getByRole("button", { name: "Resubscribe" }).click();
  await expect(page.getByTestId("subscription-state")).toContainText("Subscribed");
  await expect(page.getByTestId("subscription-state")).not.toContainText("Unsubscribed");
  await screenshot(page, "marketer-contact");

  const admin = await browser.newContext({ storageState: authFile("admin") });
  try {
    const adminPage = await admin.newPage();
    await adminPage.goto("/");
    const audit = await api(adminPage, "GET", "/api/admin/audit?action=contact.resubscribe");
    expect(audit.status, audit.text).toBe(200);
    const entries = (audit.json as { data: { target: string; detail: { reason?: string } }[] }).data;
    expect(entries.find((e) => e.target === email)?.detail.reason).toBe(`Asked to be added back (ticket ${u})`);
    // The audit screen shows it too, in the entry's details popover (its code loads on first use).
    await visit(adminPage, "/admin/audit");
    await adminPage.getByRole("button", { name: /^Details of contact\.resubscribe/ }).first().click();
    await expect(adminPage.getByRole("dialog").getByText(`Asked to be added back (ticket ${u})`)).toBeVisible();
  } finally {
    await admin.close();
  }
});
