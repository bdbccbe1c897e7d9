import type { Page } from "@playwright/test";
import { screenshot, visit } from "../fixtures";
import { authFile } from "../support/run";
import { connectEventStreamIfOffered, expect, finalStatus, otherProject, projectPath, sendDirect, target, test, unique } from "./journey";
import { budget } from "../support/budget";

/** The overview's counts against the truth: each message sent here, retrieved from the service. */
test.use({ storageState: authFile("admin") });

async function shown(page: Page): Promise<{ delivered: number; bounced: number }> {
  await visit(page, `${projectPath(otherProject)}?range=24h`);
  const read = async (metric: string) => Number(((await page.locator(`[data-metric="${metric}"] dd`).textContent()) ?? "").replace(/[^\d]/g, ""));
  return { delivered: await read("delivered"), bounced: await read("bounced") };
}

test("the overview's delivered and bounced counts equal the service's", async ({ page }) => {
  test.setTimeout(budget(120_000));
  await connectEventStreamIfOffered(page, otherProject);
  const before = await shown(page);
  const u = unique();
  const ids = [
    await sendDirect(target.address.delivered(`${u}a`), `Journey overview ${u} 1`, otherProject),
    await sendDirect(target.address.delivered(`${u}b`), `Journey overview ${u} 2`, otherProject),
    await sendDirect(target.address.bounced(u), `Journey overview ${u} 3`, otherProject),
  ];
  // The truth: what the service says became of each one.
  const statuses = await Promise.all(ids.map((id) => finalStatus(id, otherProject)));
  const truth = {
    delivered: before.delivered + statuses.filter((s) => target.truth.delivered.includes(s)).length,
    bounced: before.bounced + statuses.filter((s) => target.truth.bounced.includes(s)).length,
  };
  expect(truth, `the service's final statuses ${statuses.join(", ")}`).toEqual({ delivered: before.delivered + 2, bounced: before.bounced + 1 });
  await expect.poll(() => shown(page), { timeout: budget(30_000), message: "the overview's counts once the events are in" }).toEqual(truth);
  await screenshot(page, `journey-${target.name}-overview`);
});
