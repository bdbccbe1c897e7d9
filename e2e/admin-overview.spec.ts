import { sendMessage } from "../scripts/lib/service-api";
import { api, expect, screenshot, test, visit } from "./fixtures";
import { authFile, run, serviceKey } from "./support/run";
import { pageAs, screenshotVariants } from "./support-helpers";
import { budget } from "./support/budget";

/** The overview counts what the message index holds: the messages this test sends move the numbers. */
const project = run.projects[1] ?? run.projects[0];

type Counts = { sent: number; delivered: number; bounced: number; complained: number; rejected: number };
type Overview = { counts: Record<"24h" | "7d" | "30d", Counts> };

test.use({ storageState: authFile("marketer") });

test("the overview's numbers match the messages the test sent", async ({ page, browser }) => {
  const read = async () => ((await api(page, "GET", `/api/p/${project}/overview?range=24h`)).json as Overview).counts;
  const before = await read();
  const access = { serviceURL: run.serviceURL, key: serviceKey(), project };
  // Addresses of this run only: a bounce or a complaint suppresses its address, and another
  // spec of the same lane sending there would see its mail suppressed instead.
  const label = Date.now().toString(36);
  for (const to of ["delivered@example.com", "delivered@example.com", `bounce+overview-${label}@example.com`, `complaint+overview-${label}@example.com`, "reject@example.com"]) {
    await sendMessage(access, { to, subject: `Overview ${to}` });
  }
  const expected = (c: Counts): Counts => ({ sent: c.sent + 5, delivered: c.delivered + 3, bounced: c.bounced + 1, complained: c.complained + 1, rejected: c.rejected + 1 });
  await expect.poll(async () => (await read())["24h"], { timeout: budget(30_000) }).toEqual(expected(before["24h"]));
  const after = await read();
  expect(after["7d"]).toEqual(expected(before["7d"]));

  expect(await visit(page, `/p/${project}?range=24h`)).toBe(200);
  for (const [metric, value] of Object.entries(after["24h"])) {
    await expect(page.locator(`dl [data-metric="${metric}"] dd`)).toHaveText(value.toLocaleString("en-US"));
  }
  const rate = page.locator('[data-rate="Bounce rate"]');
  await expect(rate).toContainText(`${((after["24h"].bounced / after["24h"].sent) * 100).toFixed(1)}%`);
  // Where the numbers come from: the event stream, live, with its deliveries counted.
  const stream = page.getByRole("region", { name: "Event stream" });
  await expect(stream.locator("[data-stream-mode]")).toHaveText("Live");
  await expect(stream).toContainText(/accepted/);
  await expect(stream.getByRole("link", { name: "Stream details" })).toHaveCount(0); // marketers do not see the webhooks screen
  await screenshot(page, "admin-overview");

  // The admin's webhooks screen: the mode in plain words, and the stream's health.
  const admin = await pageAs(browser, "admin");
  try {
    expect(await visit(admin.page, `/p/${project}/webhooks`)).toBe(200);
    const card = admin.page.getByRole("region", { name: "Dashboard event stream" });
    await expect(card.locator("[data-stream-mode]")).toHaveText("Live");
    await expect(card.getByTestId("stream-mode-reason")).toContainText("Deliveries arrive and verify");
    const accepted = Number((await card.locator('[data-health="accepted"] dd').innerText()).replace(/\D/g, ""));
    expect(accepted).toBeGreaterThanOrEqual(5);
    await expect(card.locator('[data-health="refused"] dd')).toHaveText("0");
    await screenshotVariants(admin.page, "admin-webhooks-stream");
  } finally {
    await admin.close();
  }
});
