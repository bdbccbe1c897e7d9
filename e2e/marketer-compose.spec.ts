import { api, clickWhenSettled, expect, screenshot, settle, test, visit } from "./fixtures";
import { authFile } from "./support/run";
import { acceptedMessages, attachmentBytes, controlEvent, eventually, project, unique, waitForStatus } from "./helpers/marketer";
import { budget } from "./support/budget";

test.use({ storageState: authFile("marketer") });

const compose = `/p/${project}/compose`;

async function addChip(page: import("@playwright/test").Page, field: string, value: string) {
  await page.locator(`#${field}`).fill(value);
  await page.locator(`#${field}`).press("Enter");
}

test("compose with cc, a tag, a header and an attachment: delivered, attachment byte for byte", async ({ page }) => {
  // Delivered is the service's sandbox lifecycle, stepped by its one job queue, where the
  // previous spec's batch (hundreds of steps) can still be ahead: waitForStatus allows 90 s.
  test.setTimeout(budget(120_000));
  const u = unique();
  await visit(page, compose);
  await addChip(page, "to", `Ada <delivered+${u}@example.com>`);
  await addChip(page, "cc", `cc+${u}@example.com`);
  await page.getByLabel("Subject").fill(`Compose ${u}`);
  await page.getByLabel("Plain text").fill("Hello from compose.");
  await page.getByRole("button", { name: "Add tag" }).click();
  await page.getByLabel("Tags 1 name").fill("campaign");
  await page.getByLabel("Tags 1 value").fill("e2e");
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Custom headers 1 name").fill("X-E2E");
  await page.getByLabel("Custom headers 1 value").fill(u);
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
  await page.locator('input[type="file"]').setInputFiles({ name: "data.bin", mimeType: "application/octet-stream", buffer: bytes });
  await expect(page.getByText("data.bin")).toBeVisible();
  await page.getByRole("button", { name: "Review and send to 2 recipients" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText(`cc+${u}@example.com`)).toBeVisible();
  await screenshot(page, "marketer-compose-review");
  await clickWhenSettled(page, dialog.getByRole("button", { name: "Send to 2 recipients" }));
  await page.waitForURL(/\/messages\/[^/]+$/);
  const id = decodeURIComponent(page.url().split("/").pop()!);
  const message = await waitForStatus(id, ["delivered"]);
  expect(message.cc).toEqual([`cc+${u}@example.com`]);
  expect(message.tags).toEqual([{ name: "campaign", value: "e2e" }]);
  expect((message.headers as Record<string, string>)["X-E2E"]).toBe(u);
  const [attachment] = await attachmentBytes(id);
  expect(attachment.filename).toBe("data.bin");
  expect(attachment.bytes.equals(bytes)).toBe(true);
  await page.reload();
  await expect(page.getByText(/delivered/i).first()).toBeVisible();
});

test("a double-clicked send produces one message", async ({ page }) => {
  // The accepted events come by the service's webhooks, which share its one job queue with
  // whatever the lane's earlier specs left in it (a batch's lifecycle steps): as for
  // waitForStatus, up to 90 s may pass before they are delivered.
  test.setTimeout(budget(150_000));
  const u = unique();
  const seen = await acceptedMessages();
  try {
    await visit(page, compose);
    await addChip(page, "to", `twice+${u}@example.com`);
    await page.getByLabel("Subject").fill(`Double ${u}`);
    await page.getByLabel("Plain text").fill("Once.");
    await page.getByRole("button", { name: /Review and send/ }).click();
    await clickWhenSettled(page, page.getByRole("dialog").getByRole("button", { name: "Send to 1 recipient" }), { double: true, timeout: budget(30_000) });
    await page.waitForURL(/\/messages\/[^/]+$/, { timeout: budget(30_000) });
    await eventually(() => (seen.recipients.get(`twice+${u}@example.com`)?.size ?? 0) >= 1, 60_000, "the accepted event");
    // Every request of the page has been answered, and an event accepted after them has arrived.
    await settle(page);
    await controlEvent(seen, u);
    expect(seen.recipients.get(`twice+${u}@example.com`)?.size).toBe(1);
  } finally {
    await seen.close();
  }
});

test("invalid input is refused at the field, and by the route", async ({ page }) => {
  await visit(page, compose);
  await page.getByLabel("Subject").fill("Invalid");
  await page.getByLabel("Plain text").fill("x");
  await page.getByRole("button", { name: /Review and send/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: /at least one recipient/i })).toBeVisible();
  await addChip(page, "to", "not-an-address");
  await expect(page.getByText(/Recipient 1: must be an email address/)).toBeVisible();
  await page.getByRole("button", { name: "Remove not-an-address from To" }).click();
  await addChip(page, "to", "ok@example.com");
  await page.getByRole("button", { name: "Add header" }).click();
  await page.getByLabel("Custom headers 1 name").fill("X-Bad");
  await page.getByLabel("Custom headers 1 value").fill("a\nBcc: evil@example.com");
  await page.getByLabel("Schedule for later").check();
  await page.locator("#timeZone").selectOption("UTC");
  await page.locator("#scheduledLocal").fill("2020-01-01T09:00");
  await page.getByRole("button", { name: /Review and send/ }).click();
  await expect(page.getByText(/Value: header values must not contain line breaks/)).toBeVisible();
  await page.getByRole("button", { name: "Remove custom headers 1" }).click();
  await page.getByRole("button", { name: /Review and send/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: /must be in the future/ })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await screenshot(page, "marketer-compose-invalid");

  const base = { from: { email: "hello@acme.test" }, subject: "x", text: "x" };
  const key = { "Idempotency-Key": `e2e-${unique()}` };
  const cases: [unknown, string][] = [
    [{ ...base, to: [] }, "to"],
    [{ ...base, to: [{ email: "nope" }] }, "to.0.email"],
    [{ ...base, to: [{ email: "a@example.com" }], scheduledAt: "2020-01-01T00:00:00Z" }, "scheduledAt"],
    [{ ...base, to: [{ email: "a@example.com" }], headers: { "X-Bad": "a\r\nBcc: x@example.com" } }, "headers.X-Bad"],
  ];
  for (const [body, param] of cases) {
    const answer = await api(page, "POST", `/api/p/${project}/emails`, body, key);
    expect(answer.status, answer.text).toBe(400);
    expect((answer.json as { error: { param: string } }).error.param).toBe(param);
  }
  const noKey = await api(page, "POST", `/api/p/${project}/emails`, { ...base, to: [{ email: "a@example.com" }] });
  expect(noKey.status).toBe(400);
});

test("a typed field is checked when it is left, then as it is typed; other fields wait for the submit", async ({ page }) => {
  await visit(page, compose);
  await addChip(page, "to", "ok@example.com");
  const subject = page.getByLabel("Subject");
  await subject.focus();
  await subject.blur();
  await expect(page.getByRole("alert").filter({ hasText: "This field is required unless templateId is given." })).toBeVisible();
  await subject.fill("Hello");
  await expect(page.getByText(/required unless templateId/)).toHaveCount(0);
  // The body was never left: its own rule shows only once the form is submitted, with the focus on the first typed field in error.
  await expect(page.getByText(/Html, text or templateId is required/)).toHaveCount(0);
  await page.getByRole("button", { name: /Review and send/ }).click();
  await expect(page.getByText(/Html, text or templateId is required/)).toBeVisible();
  await expect(page.getByLabel("HTML", { exact: true })).toBeFocused();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("a send scheduled at least a minute ahead is listed and goes out at its time", async ({ page }) => {
  test.setTimeout(budget(180_000));
  const u = unique();
  await visit(page, compose);
  await addChip(page, "to", `later+${u}@example.com`);
  await page.getByLabel("Subject").fill(`Scheduled ${u}`);
  await page.getByLabel("Plain text").fill("Later.");
  await page.getByLabel("Schedule for later").check();
  await page.locator("#timeZone").selectOption("UTC");
  // The first whole minute at least a minute ahead (the picker has minute precision): the
  // minute leaves room for the form, the review and the listing below, which take seconds,
  // before the send is due; a longer lead only waited longer (it was two minutes: 169 s).
  const at = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
  await page.locator("#scheduledLocal").fill(at.toISOString().slice(0, 16));
  await expect(page.getByTestId("schedule-words")).toContainText("UTC");
  await page.getByRole("button", { name: /Review and send/ }).click();
  await clickWhenSettled(page, page.getByRole("dialog").getByRole("button", { name: "Schedule to 1 recipient" }));
  await page.waitForURL(/\/messages\/[^/]+$/);
  const id = decodeURIComponent(page.url().split("/").pop()!);
  await visit(page, `/p/${project}/scheduled`);
  await expect(page.getByTestId("scheduled-row").filter({ hasText: `later+${u}@example.com` })).toBeVisible();
  await screenshot(page, "marketer-scheduled");
  const early = await waitForStatus(id, ["queued", "scheduled", "accepted", "sent", "delivered"], 5_000);
  expect(["queued", "scheduled", "accepted"]).toContain(early.status);
  await waitForStatus(id, ["sent", "delivered"], 140_000);
  expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 1000);
});

test("send again refills the recipient, the template and its merge data", async ({ page }) => {
  const u = unique();
  await visit(page, compose);
  await addChip(page, "to", `again+${u}@example.com`);
  await page.getByText("Use a template").click();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "Welcome (welcome)" });
  await page.getByLabel("firstName", { exact: true }).fill(`Ada ${u}`);
  await page.getByLabel("product", { exact: true }).fill("Acme Mail");
  await page.getByLabel("actionUrl", { exact: true }).fill("https://acme.test/start");
  await page.getByRole("button", { name: "Review and send to 1 recipient" }).click();
  await clickWhenSettled(page, page.getByRole("dialog").getByRole("button", { name: "Send to 1 recipient" }));
  await page.waitForURL(/\/messages\/[^/]+$/);
  const id = decodeURIComponent(page.url().split("/").pop()!);

  await page.getByRole("link", { name: "Send again" }).click();
  await page.waitForURL(/\/compose\?from=/);
  await expect(page.getByText(`Filled in from message ${id}`)).toBeVisible();
  await expect(page.getByText(`again+${u}@example.com`)).toBeVisible();
  await expect(page.getByLabel("Template", { exact: true })).toHaveValue(/.+/);
  await expect(page.getByLabel("firstName", { exact: true })).toHaveValue(`Ada ${u}`);
  await expect(page.getByLabel("product", { exact: true })).toHaveValue("Acme Mail");
  await expect(page.getByLabel("actionUrl", { exact: true })).toHaveValue("https://acme.test/start");
  await screenshot(page, "marketer-send-again");
});

/** Dropping goes through the shared drop-zone hook: a dropped file is taken as a chosen one would be, on both zones. */
test("files dropped on the attachments zone and the batch CSV zone are taken like chosen ones", async ({ page }) => {
  async function drop(zone: import("@playwright/test").Locator, name: string, type: string, text: string) {
    const dataTransfer = await page.evaluateHandle(
      ([name, type, text]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name, { type }));
        return dt;
      },
      [name, type, text] as const,
    );
    await zone.dispatchEvent("dragover", { dataTransfer });
    await expect(zone).toHaveClass(/border-primary/);
    await zone.dispatchEvent("drop", { dataTransfer });
    await expect(zone).not.toHaveClass(/border-primary/);
  }
  await visit(page, compose);
  await drop(page.getByText("Drop files here or").locator("xpath=ancestor-or-self::div[1]"), "notes.txt", "text/plain", "hello");
  await expect(page.getByRole("listitem").filter({ hasText: "notes.txt" })).toContainText("5 B");
  await visit(page, `/p/${project}/batches`);
  await drop(page.getByText("Drop a CSV file here, or").locator(".."), "list.csv", "text/csv", "email,name\na@example.com,A\nb@example.com,B\n");
  await expect(page.getByRole("status").filter({ hasText: "Read 2 rows" })).toBeVisible();
});
