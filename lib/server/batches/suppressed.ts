import "server-only";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { service } from "@/lib/server/service";

/** Every suppressed address of the project (lower-cased) with its reason, read page by page. */
export async function suppressedAddresses(project: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | undefined;
  // Bounded so a service that keeps returning cursors cannot hold a request forever.
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await service.suppressions.list(project, { limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    for (const s of page.data) out.set(s.email.toLowerCase(), s.reason);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}
