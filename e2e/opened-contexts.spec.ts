import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The fixture that closes the contexts a test opened itself (closeOpenedContexts in
 * ./fixtures.ts): one left open kept its screen running beside every later test of the lane.
 */
test.describe.configure({ mode: "serial" });

let shared: BrowserContext;
let opened: BrowserContext;
let openedPage: Page;

test.beforeAll(async ({ browser }) => {
  shared = await browser.newContext();
});
test.afterAll(async () => {
  await shared?.close();
});

test("a test opens a context of its own and a context shared by the file", async ({ browser }) => {
  opened = await browser.newContext();
  openedPage = await opened.newPage();
  await openedPage.goto("/login");
  await (await shared.newPage()).goto("/login");
  expect(browser.contexts()).toContain(opened);
});

test("the context the last test opened is closed once it passed; the one the file shares is not", async ({ browser }) => {
  expect(openedPage.isClosed()).toBe(true);
  expect(browser.contexts()).not.toContain(opened);
  expect(browser.contexts()).toContain(shared);
  await expect((await shared.newPage()).goto("/login")).resolves.toBeTruthy();
});
