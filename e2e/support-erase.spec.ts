import { api, expect, test } from "./fixtures";
import { budget } from "./support/budget";
import { authFile } from "./support/run";
import { messagesPath, pageAs, project, send, screenshotVariants, unique, visitChecked, waitForRows } from "./support-helpers";

/** Issue 14: support erases one recipient's data from the dashboard with one confirmed action. */
test.use({ storageState: authFile("support") });

test("support erases a recipient: the dialog names the address and the consequence, the records go, the audit log keeps a hash", async ({ page, browser }) => {
  // Two waits on the event stream (waitForRows, each up to budget(90_000)): in one full run, in a lane that had just sent a 245-row batch, the first took 55 s.
  test.setTimeout(budget(240_000));
  const address = `erase+${unique()}@example.com`;
  const id = await send({ to: address, subject: `Erase me ${unique()}` });
  await waitForRows(page, `q=${encodeURIComponent(address)}`, 1);

  const recipientPath = `/p/${encodeURIComponent(project)}/recipients/${encodeURIComponent(address)}`;
  await visitChecked(page, recipientPath);
  await expect(page.locator(`tr[data-message-id="${id}"]`)).toBeVisible();

  await page.getByRole("button", { name: "Erase data" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(`Erase ${address} from the dashboard?`);
  await expect(dialog).toContainText("The email service keeps its own data");
  await expect(dialog).toContainText("without the address in clear");
  await screenshotVariants(page, "support-recipient-erase-dialog");
  // Escape closes it without erasing anything.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.locator(`tr[data-message-id="${id}"]`)).toBeVisible();

  await page.getByRole("button", { name: "Erase data" }).click();
  await dialog.getByRole("button", { name: "Erase this recipient's data" }).click();
  await expect(page.getByText(`Erased ${address} from the dashboard`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("No message to or from this address")).toBeVisible();
  await expect(page.locator(`tr[data-message-id="${id}"]`)).toHaveCount(0);
  await screenshotVariants(page, "support-recipient-erased");

  await page.goto(`${messagesPath}?q=${encodeURIComponent(address)}`);
  await expect(page.locator("tbody tr[data-message-id]")).toHaveCount(0);

  // Mail to the address after the erasure (the event stream, then the re-read) is recorded without it.
  const laterSubject = `After the erasure ${unique()}`;
  const later = await send({ to: address, subject: laterSubject, text: `Hello ${address}` });
  await waitForRows(page, `q=${encodeURIComponent(laterSubject)}`, 1);
  await expect(page.locator(`tr[data-message-id="${later}"]`)).not.toContainText(address);
  await page.goto(`${messagesPath}?q=${encodeURIComponent(address)}`);
  await expect(page.locator("tbody tr[data-message-id]")).toHaveCount(0);

  // A marketer is not offered the action.
  const marketer = await pageAs(browser, "marketer");
  try {
    await marketer.page.goto(recipientPath);
    await expect(marketer.page.getByRole("heading", { level: 1 })).toContainText(address);
    await expect(marketer.page.getByRole("button", { name: "Erase data" })).toHaveCount(0);
  } finally {
    await marketer.close();
  }

  // An admin who knows the address finds the erasure; the entry itself does not hold it.
  const admin = await pageAs(browser, "admin");
  try {
    const found = await api(admin.page, "GET", `/api/admin/audit?action=recipient.erase&q=${encodeURIComponent(address)}`);
    const entries = (found.json as { data: { target: string; actorEmail: string; detail: Record<string, unknown> }[] }).data;
    expect(entries).toHaveLength(1);
    expect(entries[0].target).toMatch(/^erased:[0-9a-f]{40}$/);
    expect(entries[0].detail).toMatchObject({ messagesDeleted: 1 });
    expect(JSON.stringify(entries[0]).toLowerCase()).not.toContain(address);
  } finally {
    await admin.close();
  }
});
