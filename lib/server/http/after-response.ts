import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { after } from "next/server";

/**
 * Work the answer does not wait for (an index write after a read). Next runs it once the
 * response is sent; outside a request (scripts, unit tests) it simply starts now. A failure
 * is logged under `label` and never reaches the user, who already has their answer.
 */
export function afterResponse(label: string, task: () => Promise<unknown>): void {
  const run = () => task().then(
    () => undefined,
    (e: unknown) => console.warn(`${label}: ${safeErrorSummary(e)}`),
  );
  try {
    after(run);
  } catch {
    const started = run().finally(() => outsideRequests.delete(started));
    outsideRequests.add(started);
  }
}

/** Tasks started outside a request, until they end: a test's late write must not land in the next test. */
const outsideRequests = new Set<Promise<void>>();

/** Tests and scripts: waits for the work started outside a request to end. */
export async function settleAfterResponses(): Promise<void> {
  while (outsideRequests.size) await Promise.allSettled([...outsideRequests]);
}
