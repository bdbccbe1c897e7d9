import type { Page, Request } from "@playwright/test";

const trackers = new WeakMap<Page, Set<Request>>();

/**
 * The page's requests still open, except Next's router prefetches (see `untilQuiet`): tracked
 * from the first call for a page on, so call it before the page goes anywhere.
 */
export function openRequests(page: Page): Set<Request> {
  let open = trackers.get(page);
  if (!open) {
    const set = new Set<Request>();
    page.on("request", (request) => {
      if (!request.headers()["next-router-prefetch"]) set.add(request);
    });
    page.on("requestfinished", (request) => set.delete(request));
    page.on("requestfailed", (request) => set.delete(request));
    trackers.set(page, set);
    open = set;
  }
  return open;
}

/**
 * Waits until the page's own requests (data, scripts) have been quiet for 500 ms, for at most
 * `timeoutMs`; false if they never were. Not Playwright's "networkidle": Next's router
 * prefetches links in view, and a prefetch of a screen that answers 404 stays open in
 * Chromium, so the network is never idle.
 */
export async function untilQuiet(page: Page, timeoutMs: number): Promise<boolean> {
  const open = openRequests(page);
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 500) return true;
    await page.waitForTimeout(100);
  }
  return false;
}
