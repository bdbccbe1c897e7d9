import { authFile, run } from "../support/run";
import { connectEventStreamIfOffered, expect, finalStatus, sendDirect, service, target, test, unique, verifiedDomain } from "./journey";
import { budget } from "../support/budget";

/**
 * Every signed delivery the service makes to the dashboard's event stream is answered 2xx,
 * whatever the payload looks like. Only a service that shows its own delivery log can be
 * asked (the contrarian has a test-only one); the interface gives no way to read it.
 */
test.use({ storageState: authFile("admin") });

const deliveryLog = target.deliveryLog;
if (deliveryLog) {
  test("every signed delivery to the event stream is answered 2xx", async ({ page }) => {
    await connectEventStreamIfOffered(page);
    const u = unique();
    // Events of each kind the journeys cause: delivered, bounced, inbound.
    const ids = [await sendDirect(target.address.delivered(u), `Journey stream ${u}`), await sendDirect(target.address.bounced(u), `Journey stream bounce ${u}`)];
    const inbound = await service("POST", "/v1/inbound/simulate", { to: `help@${await verifiedDomain()}`, from: `stream+${u}@example.org`, subject: `Journey stream inbound ${u}`, text: "Hi" });
    expect(inbound.status, inbound.text).toBeLessThan(300);
    for (const id of ids) await finalStatus(id);

    const stream = (url: string) => url.startsWith(`${run.baseURL}/api/ingest/`);
    // Wait until every delivery about these messages has its first answer.
    await expect
      .poll(async () => (await deliveryLog()).filter((d) => stream(d.url) && d.attempt === 1 && ids.includes(d.emailId)).length, {
        timeout: budget(20_000),
        message: "the service delivered this journey's events to the dashboard",
      })
      .toBeGreaterThanOrEqual(ids.length * 2);
    const attempts = (await deliveryLog()).filter((d) => stream(d.url));
    const refused = attempts.filter((d) => d.status === null || d.status < 200 || d.status >= 300);
    const summary = [...new Set(refused.map((d) => `${d.event}: ${d.status ?? "no answer"} ${(d.error ?? "").slice(0, 160)}`))];
    expect(refused.length, `${refused.length} of ${attempts.length} deliveries to the event stream were not answered 2xx:\n${summary.join("\n")}`).toBe(0);
  });
}
