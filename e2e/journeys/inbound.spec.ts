import { screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import { connectEventStreamIfOffered, expect, findInMessages, project, projectPath, service, target, test, unique, verifiedDomain } from "./journey";
import { budget } from "../support/budget";

/** Inbound mail: it shows up in Messages by itself, and a reply joins its conversation. */
test.use({ storageState: authFile("admin") });

test("a message simulated from its screen appears in Messages without being opened", async ({ page }) => {
  const u = unique();
  const subject = `Journey inbound ${u}`;
  await connectEventStreamIfOffered(page);
  await visit(page, projectPath(project, "inbound/simulate"));
  await page.getByLabel("To", { exact: true }).fill(`help@${await verifiedDomain()}`);
  await page.getByLabel("From", { exact: true }).fill(`customer+${u}@example.org`);
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Text", { exact: true }).fill("Where is my order?");
  await page.getByRole("button", { name: "Receive message" }).click();
  await expect(page.getByText("Inbound message received")).toBeVisible();
  // Straight to the list: the message is not opened by id first.
  await findInMessages(page, subject, subject);
  await screenshot(page, `journey-${target.name}-inbound-listed`);
});

test("a reply to an inbound message appears in its conversation", async ({ page }) => {
  const u = unique();
  const subject = `Journey question ${u}`;
  const simulated = await service("POST", "/v1/inbound/simulate", { to: `help@${await verifiedDomain()}`, from: `asker+${u}@example.org`, subject, text: "Can you help?" });
  expect(simulated.status, simulated.text).toBeLessThan(300);
  const id = target.simulatedInboundId(simulated.json);
  expect(id, `the id in the service's answer ${simulated.text.slice(0, 200)}`).toBeTruthy();

  await visit(page, projectPath(project, `messages/${encodeURIComponent(id!)}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
  await page.getByLabel("Message", { exact: true }).fill("Of course: it left this morning.");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Reply sent")).toBeVisible();
  const conversation = page.getByRole("list", { name: "Conversation" });
  await expect(conversation.getByRole("listitem")).toHaveCount(2, { timeout: budget(15_000) });
  await expect(conversation).toContainText(subject);
  await page.reload();
  await expect(page.getByRole("list", { name: "Conversation" }).getByRole("listitem")).toHaveCount(2);
  await screenshot(page, `journey-${target.name}-conversation`);
});
