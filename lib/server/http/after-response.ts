import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { after } from "next/server";

/**
 * Work the answer does not wait for (an index write after a read). Next runs it once the
 * response is sent; a door before Next (lib/server/messages/read-fast-path.ts) holds it the
 * same way (`holdingAfterResponse`); outside a request (scripts, unit tests) it simply starts
 * now. A failure is logged under `label` and never reaches the user, who already has their answer.
 */
export function afterResponse(label: string, task: () => Promise<unknown>): void {
  const run = () => task().then(
    () => undefined,
    (e: unknown) => console.warn(`${label}: ${safeErrorSummary(e)}`),
  );
  const held = holds().getStore();
  if (held && !held.released) {
    held.tasks.push(run);
    return;
  }
  try {
    after(run);
  } catch {
    track(run());
  }
}

type Held = { tasks: (() => Promise<void>)[]; released: boolean };

// On globalThis: Next bundles instrumentation.ts (where the door runs) and the route handlers separately.
const KEY = Symbol.for("mail-dashboard.after-response-holds");
function holds(): AsyncLocalStorage<Held> {
  const holder = globalThis as { [KEY]?: AsyncLocalStorage<Held> };
  return (holder[KEY] ??= new AsyncLocalStorage());
}

/**
 * Runs `fn` with the afterResponse work it schedules held back, as Next's `after()` holds it:
 * `release` starts that work (the door calls it once its answer is written); work scheduled
 * after the release starts at once. Started outside Next, the work would otherwise share the
 * thread with the answer it follows (on PGlite, the index's query runs on this thread too).
 */
export async function holdingAfterResponse<T>(fn: () => Promise<T>): Promise<{ result: T; release: () => void }> {
  const held: Held = { tasks: [], released: false };
  const result = await holds().run(held, fn);
  return {
    result,
    release: () => {
      held.released = true;
      for (const run of held.tasks.splice(0)) track(run());
    },
  };
}

/** Tasks started outside a request, until they end: a test's late write must not land in the next test. */
const outsideRequests = new Set<Promise<void>>();

function track(task: Promise<void>): void {
  const started = task.finally(() => outsideRequests.delete(started));
  outsideRequests.add(started);
}

/** Tests and scripts: waits for the work started outside a request to end. */
export async function settleAfterResponses(): Promise<void> {
  while (outsideRequests.size) await Promise.allSettled([...outsideRequests]);
}
