import type { Page, Request } from "@playwright/test";

interface Tracker {
  open: Set<Request>;
  /** How many of the page's own requests started or ended so far. */
  events: number;
}
const trackers = new WeakMap<Page, Tracker>();

function tracker(page: Page): Tracker {
  let t = trackers.get(page);
  if (!t) {
    const tracked: Tracker = { open: new Set(), events: 0 };
    page.on("request", (request) => {
      if (request.headers()["next-router-prefetch"]) return;
      tracked.open.add(request);
      tracked.events += 1;
    });
    const ended = (request: Request) => {
      if (tracked.open.delete(request)) tracked.events += 1;
    };
    page.on("requestfinished", ended);
    page.on("requestfailed", ended);
    trackers.set(page, tracked);
    t = tracked;
  }
  return t;
}

/**
 * The page's requests still open, except Next's router prefetches (see `untilQuiet`): tracked
 * from the first call for a page on, so call it before the page goes anywhere.
 */
export function openRequests(page: Page): Set<Request> {
  return tracker(page).open;
}

/** Resolves true once none of the page's own requests is open, false at `deadline`. */
function noneOpen(page: Page, deadline: number): Promise<boolean> {
  const open = openRequests(page);
  if (open.size === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (result: boolean) => {
      clearTimeout(timer);
      page.off("requestfinished", ended);
      page.off("requestfailed", ended);
      page.off("close", closed);
      resolve(result);
    };
    // Registered after openRequests' own listeners, so the request has left the set.
    const ended = () => open.size === 0 && done(true);
    const closed = () => done(false);
    const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
    page.on("requestfinished", ended);
    page.on("requestfailed", ended);
    page.on("close", closed);
  });
}

/** A timer this short may still start work the page must finish (see `trackShortTimers`). */
const SHORT_TIMER_MS = 1000;

interface PageTimers {
  pending: Set<number>;
  wake: Set<() => void>;
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}

/**
 * Runs in the page, before its own scripts: counts the timers of `shortMs` or less still to
 * fire, and wakes the waiters of `settledInPage` as each fires or is cleared. What starts work
 * a little later hides behind such timers, where no request and no query shows it: React
 * reveals a lazily loaded part (the palette after Ctrl+K) 300 ms after its fallback, TanStack
 * hands an answer to the screens on the next tick, a debounced input waits 300-500 ms.
 */
function trackShortTimers(shortMs: number): void {
  const w = window as unknown as { __pageTimers?: PageTimers };
  if (w.__pageTimers) return;
  const own = { setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window) };
  const timers: PageTimers = { pending: new Set(), wake: new Set(), setTimeout: own.setTimeout as typeof setTimeout, clearTimeout: own.clearTimeout };
  w.__pageTimers = timers;
  const wake = () => {
    for (const f of [...timers.wake]) f();
  };
  window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
    if (typeof handler !== "function" || (Number(delay) || 0) > shortMs) return own.setTimeout(handler, delay, ...args);
    const id: number = own.setTimeout(
      (...a: unknown[]) => {
        timers.pending.delete(id);
        try {
          (handler as (...x: unknown[]) => void)(...a);
        } finally {
          wake();
        }
      },
      delay,
      ...args,
    );
    timers.pending.add(id);
    return id;
  }) as typeof setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined && timers.pending.delete(id)) own.setTimeout(wake, 0);
    own.clearTimeout(id);
  }) as typeof clearTimeout;
}

/**
 * Runs in the page, before its own scripts: counts the `<script src>` elements added to the
 * document until each has run (its load event) or failed, and wakes the waiters of
 * `settledInPage` as each ends. Playwright reports a script's request finished once its bytes
 * have arrived; the page runs it later, on a loaded machine hundreds of milliseconds later
 * (the command palette's chunks after Ctrl+K), so the request alone does not say the page is
 * done with it. Only scripts that load: not `nomodule`, not a data type, each counted once (a
 * script moved or added again does not run again).
 */
function trackAddedScripts(): void {
  const w = window as unknown as { __pageTimers?: PageTimers; __pageScripts?: Set<HTMLScriptElement> };
  if (w.__pageScripts) return;
  const loading = new Set<HTMLScriptElement>();
  w.__pageScripts = loading;
  const counted = new WeakSet<HTMLScriptElement>();
  const runs = (s: HTMLScriptElement) => !!s.src && !s.noModule && /^(|module|(text|application)\/(java|ecma)script)$/i.test(s.type.trim());
  const follow = (node: Node) => {
    if (!(node instanceof HTMLScriptElement) || counted.has(node) || !runs(node)) return;
    counted.add(node);
    loading.add(node);
    const ended = () => {
      loading.delete(node);
      for (const f of [...(w.__pageTimers?.wake ?? [])]) f();
    };
    node.addEventListener("load", ended, { once: true });
    node.addEventListener("error", ended, { once: true });
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(follow);
  }).observe(document, { childList: true, subtree: true });
}

const timersWatched = new WeakSet<Page>();

/**
 * Starts following `page` for `untilQuiet`: its requests, and its short timers in every
 * document from now on (and in the current one, from now on). Call it before the page goes
 * anywhere; `untilQuiet` calls it too.
 */
export async function watchPage(page: Page): Promise<void> {
  tracker(page);
  if (timersWatched.has(page)) return;
  timersWatched.add(page);
  await page.addInitScript(inPage(trackShortTimers, SHORT_TIMER_MS));
  await page.addInitScript(inPage(trackAddedScripts));
  await page.evaluate(inPage(trackShortTimers, SHORT_TIMER_MS)).catch(() => {});
  await page.evaluate(inPage(trackAddedScripts)).catch(() => {});
}

/**
 * Runs in the page: resolves true once the page says it has hydrated and its queries are idle
 * (components/shell/page-state.tsx), no script it added is still to run (`trackAddedScripts`),
 * and it still says so after one animation frame and an idle period, after the short timers
 * pending when it first said so have fired (`trackShortTimers`); false after `timeoutMs`. The
 * idle period comes only when the page has no task ready to run: a render React scheduled (a
 * Suspense boundary still to hydrate, a state set in an effect that enables a query) runs
 * before it, and the query it starts says "busy" at once. Short timers set after that first
 * "ready" are waited for too, for `LATER_TIMER_ROUNDS` rounds: a chunk that has just run sets
 * one (React reveals what it holds 300 ms after the fallback), and so may the timer it sets.
 */
function settledInPage(timeoutMs: number): Promise<boolean> {
  // Rounds of short timers set after the page first said it was ready: enough for a reveal and
  // what it starts, few enough that a timer re-arming itself forever is not chased.
  const LATER_TIMER_ROUNDS = 3;
  const html = document.documentElement;
  const w = window as unknown as { __pageTimers?: PageTimers; __pageScripts?: Set<HTMLScriptElement> };
  const timers = w.__pageTimers;
  const ready = () => html.dataset.hydrated !== undefined && html.dataset.queries !== "busy" && !w.__pageScripts?.size;
  const later = timers?.setTimeout ?? setTimeout;
  const cancel = timers?.clearTimeout ?? clearTimeout;
  return new Promise((resolve) => {
    let frame = 0;
    let idle = 0;
    let rounds = 0;
    // The short timers pending when the page first said it was ready: waited for once, so that
    // one that re-arms itself (a debounce fed a new object at every render) is not chased.
    let waiting: Set<number> | null = null;
    // Every short timer waited for so far, so that a round waits only for ones set since.
    const waitedFor = new Set<number>();
    const observer = new MutationObserver(() => check());
    const finish = (result: boolean) => {
      observer.disconnect();
      timers?.wake.delete(check);
      cancel(timer);
      cancelAnimationFrame(frame);
      cancelIdleCallback(idle);
      resolve(result);
    };
    const timer = later(() => finish(false), timeoutMs);
    const confirm = () => {
      if (!ready()) {
        waiting = null;
        return check();
      }
      const setSince = [...(timers?.pending ?? [])].filter((id) => !waitedFor.has(id));
      if (setSince.length === 0 || rounds === LATER_TIMER_ROUNDS) return finish(true);
      rounds += 1;
      waiting = new Set(setSince);
      for (const id of setSince) waitedFor.add(id);
      check();
    };
    // (Re)starts the confirmation whenever the page is ready, from the attributes' last change.
    function check() {
      cancelAnimationFrame(frame);
      cancelIdleCallback(idle);
      if (!ready()) {
        waiting = null;
        return;
      }
      if (!waiting) {
        waiting = new Set(timers?.pending ?? []);
        for (const id of waiting) waitedFor.add(id);
      }
      for (const id of [...waiting]) if (!timers?.pending.has(id)) waiting.delete(id);
      if (waiting.size === 0) frame = requestAnimationFrame(() => (idle = requestIdleCallback(confirm)));
    }
    observer.observe(html, { attributes: true, attributeFilter: ["data-hydrated", "data-queries"] });
    timers?.wake.add(check);
    check();
  });
}

/**
 * An expression that runs `fn(arg)` in the page. Sent as source: under tsx (the benches)
 * esbuild wraps named inner functions in an `__name` helper that the page does not have.
 */
const inPage = (fn: (arg: number) => unknown, arg?: number) => `(() => { const __name = (f) => f; return (${String(fn)})(${JSON.stringify(arg ?? null)}); })()`;

const navigatedAway = (error: unknown) => /context was destroyed|navigat/i.test(String(error));

/**
 * Waits, for at most `timeoutMs`, until the page has loaded everything it loads on its own:
 * it has hydrated, no TanStack query is fetching and no mutation running (both as the page
 * itself says, components/shell/page-state.tsx), it had nothing left to do for a frame and an
 * idle period, and none of its own requests (data, scripts, a plain fetch) is open; false if
 * that never happened. A state, not a quiet window: an answer that enables the next query
 * keeps the page "busy" until that query has started. Not Playwright's "networkidle": Next's
 * router prefetches a link the pointer rests on (components/common/link.tsx), and a prefetch
 * of a screen that answers 404 stays open in Chromium, so the network is never idle. Pages the dashboard did not render (no marker)
 * never settle.
 */
export async function untilQuiet(page: Page, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  await watchPage(page);
  const requests = tracker(page);
  for (;;) {
    if (!(await noneOpen(page, deadline))) return false;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    // The page cannot see its requests (a chunk a click asked for, a plain fetch): its answer
    // counts only if none started or ended while it was being asked.
    const events = requests.events;
    try {
      if (!(await page.evaluate<boolean>(inPage(settledInPage, left)))) return false;
    } catch (error) {
      // A navigation replaced the document while it was being asked: ask the new one.
      if (navigatedAway(error) && !page.isClosed()) continue;
      throw error;
    }
    if (requests.open.size === 0 && requests.events === events) return true;
  }
}

/** What the page still waits for, for a message when `untilQuiet` gave up. */
export async function stillPending(page: Page): Promise<string> {
  const requests = [...openRequests(page)].map((r) => r.url());
  const state = await page
    .evaluate(() => ({
      hydrated: document.documentElement.dataset.hydrated !== undefined,
      queries: document.documentElement.dataset.queries ?? "none",
      scripts: [...((window as unknown as { __pageScripts?: Set<HTMLScriptElement> }).__pageScripts ?? [])].map((s) => s.src),
    }))
    .catch(() => null);
  const parts = [`open requests: ${requests.join(", ") || "none"}`];
  if (state?.scripts.length) parts.push(`scripts added and not yet run: ${state.scripts.join(", ")}`);
  if (state) parts.push(state.hydrated ? `queries: ${state.queries}` : "not hydrated");
  if (state?.queries === "busy") parts.push("(a query fetching or a mutation running: one waiting on a step-up dialog counts)");
  return parts.join("; ");
}
