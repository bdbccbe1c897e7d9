import type { Page } from "@playwright/test";
import { watchPage } from "../scripts/lib/page-quiet";
import { api, expect, settle, test, visit } from "./fixtures";
import { budget } from "./support/budget";
import { authFile, run } from "./support/run";

/**
 * settle() (scripts/lib/page-quiet.ts) waits on what the page says of itself
 * (components/shell/page-state.tsx), not on a quiet window: these check that it never returns
 * before what the page loads on its own is on the screen.
 */
test.use({ storageState: authFile("admin") });
const [project] = run.projects;

type Seen = { queries: string | null; shown: boolean };

const pageState = (page: Page) =>
  page.evaluate(() => ({ hydrated: document.documentElement.dataset.hydrated !== undefined, queries: document.documentElement.dataset.queries ?? null }));

const frameAndIdle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestIdleCallback(() => resolve()))));

/**
 * Time for a wait that returned too early to have done so: an animation frame and an idle
 * period of the page (settle's own last step), then another, so that its answer has reached
 * the test and been acted on before this one's has.
 */
const pageHadItsChance = async (page: Page) => {
  await frameAndIdle(page);
  await frameAndIdle(page);
};

test("a query that answers late: settle returns only once its answer is on the screen, and the page says busy until then", async ({ page }) => {
  const name = `settle view ${Date.now()}`;
  expect((await api(page, "POST", `/api/p/${project}/views`, { name, state: { q: "settle" } })).status).toBe(201);
  expect(await visit(page, `/p/${project}`)).toBe(200);
  expect(await pageState(page)).toEqual({ hydrated: true, queries: "idle" });

  // Every change of data-queries, with whether the view's name was on the screen at that moment.
  await page.evaluate((viewName) => {
    const html = document.documentElement;
    const seen: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = seen;
    const note = () => seen.push({ queries: html.dataset.queries ?? null, shown: document.body.textContent!.includes(viewName) });
    new MutationObserver(note).observe(html, { attributes: true, attributeFilter: ["data-queries"] });
  }, name);

  // The palette reads the saved views when it opens; their answer waits until released.
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/p/${project}/views`, async (route) => {
    asked();
    await released;
    await route.continue();
  });

  // Settled from the keypress on: the palette's chunks arrive, run, and reveal the palette
  // before its read starts (the two tests below hold each of those steps).
  await page.keyboard.press("Control+k");
  let settled = false;
  const settling = settle(page).then(() => (settled = true));
  await requested;
  // What the page said from the moment the read began (the query said "busy" as it started).
  const from = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen.length);
  await pageHadItsChance(page);
  expect(settled, "settle returned while the saved views were still being read").toBe(false);
  expect((await pageState(page)).queries).toBe("busy");

  release();
  await settling;
  // Read once, no retry: it must be there the moment settle returns.
  expect(await page.getByRole("dialog").getByRole("option", { name }).count()).toBe(1);
  const seen = (await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen)).slice(from);
  expect(seen.at(-1), "the page said idle last, with the view on the screen").toEqual({ queries: "idle", shown: true });
  expect(seen.filter((s) => s.queries === "idle" && !s.shown), "the page never said idle before the view was drawn").toEqual([]);
});

test("a script the page added has arrived but not run: settle returns only once it has run", async ({ page }) => {
  // Opened without visit(): settle's watch starts below, after the first script was asked for,
  // so only the page's own count of its scripts knows of the second.
  await page.goto(`/p/${project}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined && document.documentElement.dataset.queries === "idle");
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const script = (body: string) => ({ contentType: "text/javascript", body });
  await page.route("**/__settle/first.js", async (route) => {
    await firstHeld;
    await route.fulfill(script("window.__first = true;"));
  });
  await page.route("**/__settle/second.js", (route) => route.fulfill(script("window.__second = true;")));
  // Scripts added in order run in order: the second, though here, waits for the first to run.
  const add = (src: string) =>
    page.evaluate((url) => {
      const element = document.createElement("script");
      element.src = url;
      element.async = false;
      document.head.append(element);
    }, src);
  const firstAsked = page.waitForRequest("**/__settle/first.js");
  await add("/__settle/first.js");
  await firstAsked;
  await watchPage(page);
  const secondArrived = page.waitForEvent("requestfinished", (request) => request.url().endsWith("/__settle/second.js"));
  await add("/__settle/second.js");
  await secondArrived;

  let settled = false;
  const settling = settle(page).then(() => (settled = true));
  await pageHadItsChance(page);
  expect(settled, "settle returned while a script the page added had not run").toBe(false);
  expect(await page.evaluate(() => (window as unknown as { __second?: boolean }).__second ?? false)).toBe(false);

  releaseFirst();
  await settling;
  expect(await page.evaluate(() => (window as unknown as { __second?: boolean }).__second ?? false), "the second script ran before settle returned").toBe(true);
});

test("a short timer set after the page said it was ready: settle waits for it and for the timer it sets", async ({ page }) => {
  expect(await visit(page, `/p/${project}`)).toBe(200);
  // As a chunk that has just run reveals its part (React, 300 ms after the fallback), and the
  // reveal then sets one of its own: neither is pending when settle starts.
  await page.evaluate(() =>
    setTimeout(() => {
      setTimeout(() => {
        setTimeout(() => (document.body.dataset.revealed = "yes"), 600);
      }, 300);
    }, 0),
  );
  await settle(page);
  expect(await page.evaluate(() => document.body.dataset.revealed ?? null), "what the last timer drew, the moment settle returned").toBe("yes");
});

test("a page loaded on a slow processor: settle returns hydrated, its queries idle, its own requests answered", async ({ page, axe }) => {
  // Settle's usual deadline (15 s, scaled) is for a usual processor: on one six times slower,
  // in full runs on a loaded 2-core machine, this test took up to 35 s. What is tested is that
  // settle returns with the page settled, not how soon.
  test.setTimeout(budget(120_000));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  await watchPage(page);
  expect((await page.goto(`/p/${project}/messages`))?.status()).toBe(200);
  await settle(page, budget(60_000));
  expect(await pageState(page)).toEqual({ hydrated: true, queries: "idle" });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await axe();
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a page without the query client says it has hydrated, and settles", async ({ page }) => {
    expect(await visit(page, "/login")).toBe(200);
    expect(await pageState(page)).toEqual({ hydrated: true, queries: null });
  });
});
