import "server-only";
import type { Suppression } from "@/lib/schemas/suppressions";
import { service } from "@/lib/server/service";

/** Pages read at most: the interface lists suppressions but cannot filter them by address. */
const MAX_PAGES = 20;

/**
 * The suppressions of these addresses in the project, newest pages first. The list has no
 * filter, so it is paged (100 at a time, up to 2,000 entries) until every address is found.
 */
export async function suppressionsOf(project: string, emails: string[]): Promise<Suppression[]> {
  const wanted = new Set(emails.map((e) => e.toLowerCase()));
  const found = new Map<string, Suppression>();
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES && wanted.size > found.size; i++) {
    const page = await service.suppressions.list(project, { limit: 100, cursor });
    for (const s of page.data) {
      const email = s.email.toLowerCase();
      if (wanted.has(email) && !found.has(email)) found.set(email, s);
    }
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return [...found.values()];
}
