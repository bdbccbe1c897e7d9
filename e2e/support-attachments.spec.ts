import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { api, expect, test } from "./fixtures";
import { authFile } from "./support/run";
import { messagePath, project, send, unique, visitChecked } from "./support-helpers";

test.use({ storageState: authFile("support") });

test("an attachment downloads byte-for-byte, as an attachment with nosniff", async ({ page }) => {
  const bytes = randomBytes(50_000);
  // An HTML attachment: the most dangerous kind to render inline.
  const id = await send({ to: "delivered@example.com", subject: `Attachment ${unique()}`, attachments: [{ filename: "report <1>.html", content: bytes.toString("base64"), contentType: "text/html" }] });
  await visitChecked(page, messagePath(id));
  const list = page.getByRole("list", { name: "Attachments" });
  await expect(list).toContainText("report <1>.html");
  await expect(list).toContainText("text/html");
  await expect(list).toContainText("48.8 KB");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download report <1>.html" }).click()]);
  const saved = await readFile((await download.path())!);
  expect(Buffer.compare(saved, bytes)).toBe(0);

  const href = (await page.getByRole("link", { name: "Download report <1>.html" }).getAttribute("href"))!;
  expect(href.startsWith(`/api/p/${project}/messages/`)).toBe(true);
  const answer = await api(page, "GET", href);
  expect(answer.status).toBe(200);
  expect(answer.headers["content-disposition"]).toMatch(/^attachment;/);
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["content-type"]).toBe("application/octet-stream");
});
