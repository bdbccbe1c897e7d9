import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, phoneFits, reloadUntilFound, test, visit } from "./fixtures";
import { startAbuseTarget, type AbuseTarget } from "./helpers/abuse-target";
import { connectEventStreamIfOffered, project, sendDirect, unique } from "./journeys/journey";
import { authFile } from "./support/run";
import { budget } from "./support/budget";

/**
 * Issue 29 part 4, the webhook tools on the Webhooks screen: what reached the event stream (a
 * delivery of the service shows as recorded, an unsigned post as refused), and "Test an
 * endpoint" — refused for this machine on the suite's dashboard (no OUTBOUND_ALLOW_*), and
 * answered by a receiver on 127.0.0.1 on a dashboard of its own that allows it.
 */
test.use({ storageState: authFile("admin") });

let receiver: Server;
let receiverPort = 0;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, note: "x".repeat(3000) }));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverPort = (receiver.address() as AddressInfo).port;
});
test.afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

const screen = (p: string) => `/p/${encodeURIComponent(p)}/webhooks`;


test("a delivery of the service shows as recorded, an unsigned post as refused, each with its outcome", async ({ page }) => {
  test.setTimeout(budget(90_000));
  await connectEventStreamIfOffered(page);
  const messageId = await sendDirect(`delivered+${unique()}@example.com`, `Webhook tools ${unique()}`);
  const forged = `whd_forged_${unique()}`;
  const post = await page.request.post(`/api/ingest/${encodeURIComponent(project)}`, {
    headers: { "content-type": "application/json", "webhook-id": forged, "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,bm90IGEgc2lnbmF0dXJl" },
    data: JSON.stringify({ type: "sent", data: { messageId: "em_forged", to: ["someone@example.com"] } }),
  });
  expect(post.status()).toBe(401);

  expect(await visit(page, `${screen(project)}?deliveries=1`)).toBe(200);
  const log = page.getByRole("list", { name: "Deliveries" });
  const recorded = log.locator(`li[data-delivery-outcome="recorded"]`, { hasText: messageId }).first();
  await reloadUntilFound(page, log.or(page.getByText("No deliveries yet")), recorded, "the service's delivery for the message shows as recorded");
  // Too large, refused before its body is read (the ingest answers before Next): noted too, naming the limit.
  const oversized = `whd_oversized_${unique()}`;
  const big = await page.request.post(`/api/ingest/${encodeURIComponent(project)}`, {
    headers: { "content-type": "application/json", "webhook-id": oversized },
    data: Buffer.alloc(1024 * 1024 + 1, "x"),
  });
  expect(big.status()).toBe(413);
  await page.reload();
  const tooLarge = log.locator(`li[data-webhook-id="${oversized}"]`);
  await expect(tooLarge).toHaveAttribute("data-delivery-outcome", "refused");
  await expect(tooLarge).toContainText("INGEST_MAX_BYTES");
  await expect(tooLarge).toContainText("Refused before its body was read.");
  // "Problems only" leaves the refused and unusable ones.
  await log.page().getByRole("button", { name: /^Problems only \(\d+\)$/ }).click();
  await expect(page.getByRole("button", { name: /^Problems only/ })).toHaveAttribute("aria-pressed", "true");
  await expect(log.locator(`li[data-delivery-outcome="recorded"]`)).toHaveCount(0);
  await expect(tooLarge).toBeVisible();
  await page.getByRole("button", { name: /^Problems only/ }).click();
  await expect(recorded).toBeVisible();

  const refused = log.locator(`li[data-webhook-id="${forged}"]`);
  await expect(refused).toHaveAttribute("data-delivery-outcome", "refused");
  await expect(refused).toContainText("Not verified: the signature does not match the signing secret");
  await refused.getByText(/Body .* redacted/).click();
  await expect(refused.locator("pre")).toContainText("***@example.com");
  await expect(refused.getByRole("button", { name: "Process again" })).toHaveCount(0);
  await expect(recorded).toContainText("Verified");
  await expect(recorded.getByRole("button", { name: "Process again" })).toBeVisible();
  await recorded.getByRole("button", { name: "Process again" }).click();
  await expect(page.getByText("Already recorded: the event stays recorded once.")).toBeVisible();
  await phoneFits(page, "admin-webhook-deliveries");
});

test("testing an endpoint on this machine is refused, naming the rule, and nothing is sent", async ({ page }) => {
  expect(await visit(page, screen(project))).toBe(200);
  await page.getByRole("button", { name: "Test an endpoint" }).click();
  const form = page.getByRole("form", { name: "Test an endpoint" });
  await form.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${receiverPort}/hooks`);
  const before = received.length;
  await form.getByRole("button", { name: "Send test event" }).click();
  await expect(form.getByText(/127\.0\.0\.1 is a loopback address.*OUTBOUND_ALLOW_PRIVATE or OUTBOUND_ALLOW_HOSTS/)).toBeVisible();
  expect(received.length).toBe(before);
});

test.describe("on a dashboard that allows 127.0.0.1", () => {
  let target: AbuseTarget;
  test.beforeAll(async () => {
    test.setTimeout(budget(120_000));
    target = await startAbuseTarget({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" });
  });
  test.afterAll(async () => {
    await target?.dispose();
  });
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a signed sample reaches the receiver; its status, time and first kilobyte are shown", async ({ page }) => {
    // The target's admin session (its csrf and session cookies, `a=1; b=2`), in this browser.
    const cookies = target.admin.cookie.split("; ").map((c) => {
      const at = c.indexOf("=");
      return { name: c.slice(0, at), value: c.slice(at + 1), url: target.baseURL };
    });
    await page.context().addCookies(cookies);
    await page.goto(`${target.baseURL}${screen(target.project)}`);
    await page.getByRole("button", { name: "Test an endpoint" }).click();
    const form = page.getByRole("form", { name: "Test an endpoint" });
    const secret = `whsec_${Buffer.from(`e2e-receiver-secret-${unique()}`).toString("base64")}`;
    await form.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${receiverPort}/hooks`);
    await form.getByLabel(/Signing secret/).fill(secret);
    await form.getByRole("button", { name: "Send test event" }).click();
    const result = page.getByRole("status", { name: "Test result" });
    await expect(result).toContainText("HTTP 202");
    await expect(result).toContainText("accepted");
    await expect(result).toContainText("The answer's first kilobyte:");
    await expect(result).toContainText("none (plain http)");
    const last = received.at(-1)!;
    const verified = new Webhook(secret).verify(last.body, {
      "webhook-id": String(last.headers["webhook-id"]),
      "webhook-timestamp": String(last.headers["webhook-timestamp"]),
      "webhook-signature": String(last.headers["webhook-signature"]),
    }) as { type: string; data: { project: string } };
    expect(verified).toMatchObject({ type: "delivery", data: { project: target.project } });
    await phoneFits(page, "admin-webhook-test");
  });
});
