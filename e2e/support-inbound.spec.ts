import { api, expect, settle, test } from "./fixtures";
import { authFile } from "./support/run";
import { messagePath, messagesPath, project, receivingAddress, unique, pageAs, screenshotVariants, visitChecked } from "./support-helpers";
import { budget } from "./support/budget";

/** Issue 4: inbound mail is shown safely, answered in its thread once, and only by support and admins. */
const REMOTE = "http://remote-images.e2e.test";
// The javascript: link comes first and large, so a real click can land on it: Playwright
// cannot reach inside a frame that may not run scripts, which is the point of the sandbox.
const HOSTILE = [
  `<a id="js-link" style="display:block;font-size:40px;line-height:60px" href="javascript:alert('link ran')">CLICK ME</a>`,
  "<p>Hello, my order never arrived.</p>",
  "<script>alert('script ran'); console.log('script ran')</script>",
  `<img src="x" onerror="alert('onerror ran')">`,
  `<img id="remote" src="${REMOTE}/pixel.png" alt="tracker">`,
].join("");

async function simulate(page: import("@playwright/test").Page, subject: string, html: string, shots = false): Promise<string> {
  await visitChecked(page, `/p/${project}/inbound/simulate`);
  await page.getByLabel("To", { exact: true }).fill(await receivingAddress());
  await page.getByLabel("From", { exact: true }).fill(`customer+${unique()}@example.com`);
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Text", { exact: true }).fill("Hello, my order never arrived.");
  await page.getByLabel("HTML", { exact: true }).fill(html);
  await page.getByRole("button", { name: "Receive message" }).click();
  const link = page.getByRole("link", { name: /Open the message/ });
  await expect(link).toBeVisible();
  if (shots) await screenshotVariants(page, "support-simulate");
  const href = (await link.getAttribute("href"))!;
  return decodeURIComponent(href.split("/").pop()!);
}

test.describe("as support", () => {
  test.use({ storageState: authFile("support") });

  test("hostile inbound html runs no script, navigates nowhere and loads nothing remote until allowed", async ({ page }) => {
    const dialogs: string[] = [];
    const consoleLines: string[] = [];
    const remoteRequests: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("console", (m) => consoleLines.push(m.text()));
    page.on("request", (r) => {
      if (r.url().startsWith(REMOTE)) remoteRequests.push(r.url());
    });
    await page.route(`${REMOTE}/**`, (route) => route.fulfill({ status: 200, contentType: "image/png", body: Buffer.alloc(0) }));

    const id = await simulate(page, `Hostile ${unique()}`, HOSTILE, true);
    await visitChecked(page, messagePath(id));
    const iframe = page.locator("iframe[title^='Email body']");
    await expect(iframe).toBeVisible();
    // No allow-scripts, no allow-same-origin: the frame can run nothing and read nothing of ours.
    await expect(iframe).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
    const srcdoc = (await iframe.getAttribute("srcdoc"))!;
    expect(srcdoc).toContain("script-src 'none'");
    expect(srcdoc).toContain("Hello, my order never arrived.");
    // Rewritten to data-remote-src: the bare attribute must not be there.
    expect(srcdoc).not.toMatch(new RegExp(`\\ssrc="${REMOTE}`));

    const before = page.url();
    const box = (await iframe.boundingBox())!;
    await page.mouse.click(box.x + 60, box.y + 40);
    // Whatever the click started (a navigation, a request) has run its course.
    await settle(page);
    expect(page.url()).toBe(before);
    expect(page.context().pages()).toHaveLength(1);
    expect(dialogs).toEqual([]);
    expect(consoleLines.filter((l) => l.includes("ran"))).toEqual([]);
    expect(remoteRequests).toEqual([]);
    await expect(page.getByText(/remote image.*blocked/)).toBeVisible();
    await screenshotVariants(page, "support-inbound-hostile");
    expect(remoteRequests).toEqual([]);

    await page.getByRole("button", { name: "Show remote images" }).click();
    await expect(iframe).toHaveAttribute("srcdoc", new RegExp(`\\ssrc="${REMOTE}/pixel.png"`));
    expect(dialogs).toEqual([]);
  });

  test("a reply double-clicked sends exactly one reply, and the conversation shows both messages", async ({ page }) => {
    const subject = `Where is my order ${unique()}`;
    const id = await simulate(page, subject, "<p>Where is it?</p>");
    await visitChecked(page, messagePath(id));
    await expect(page.getByLabel("Subject", { exact: true })).toHaveValue(`Re: ${subject}`);
    await page.getByLabel("Message", { exact: true }).fill("It left our warehouse this morning.");
    await page.getByRole("button", { name: "Send reply" }).dblclick();
    await expect(page.getByText("Reply sent")).toBeVisible();
    const conversation = page.getByRole("list", { name: "Conversation" });
    await expect(conversation.locator("[data-thread-message]")).toHaveCount(2, { timeout: budget(15_000) });
    await expect(conversation).toContainText(`Re: ${subject}`);
    // Both clicks' requests have been answered before the reload counts the replies.
    await settle(page);
    await page.reload();
    await expect(page.getByRole("list", { name: "Conversation" }).locator("[data-thread-message]")).toHaveCount(2);
    await screenshotVariants(page, "support-conversation");
  });
});

test.describe("as marketer", () => {
  test.use({ storageState: authFile("marketer") });

  test("cannot reply or simulate, in the screens and on the routes", async ({ page, browser }) => {
    const support = await pageAs(browser, "support");
    const id = await simulate(support.page, `For marketers ${unique()}`, "<p>Hi</p>");
    await support.close();

    await visitChecked(page, messagePath(id));
    await expect(page.getByRole("button", { name: "Send reply" })).toHaveCount(0);
    await expect(page.getByText(/Replying is for support staff and admins/)).toBeVisible();
    // The forbidden page (its HTTP status is 200 once the project layout's loading state has streamed).
    await visitChecked(page, `/p/${project}/inbound/simulate`);
    await expect(page.getByText("You do not have access to this")).toBeVisible();
    await expect(page.getByRole("button", { name: "Receive message" })).toHaveCount(0);
    await visitChecked(page, messagesPath);
    await expect(page.getByRole("link", { name: "Simulate inbound" })).toHaveCount(0);

    const reply = await api(page, "POST", `/api/p/${project}/messages/${encodeURIComponent(id)}/reply`, { text: "hi", idempotencyKey: `k-${unique()}` });
    expect(reply.status).toBe(403);
    const sim = await api(page, "POST", `/api/p/${project}/inbound/simulate`, { to: await receivingAddress(), from: "a@example.com", subject: "x", text: "y" });
    expect(sim.status).toBe(403);
    expect((sim.json as { error: { code: string } }).error.code).toBe("forbidden");
  });
});
