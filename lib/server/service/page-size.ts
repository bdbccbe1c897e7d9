import "server-only";
import { DEFAULT_PAGE_SIZE, type PageQuery } from "@/lib/schemas";

/**
 * The query of a list operation, always with `limit`: the interface leaves the default page
 * size open, so the dashboard never relies on one (and never on a page being "full" either —
 * only `nextCursor` says there is more).
 */
export function listQuery<Q extends Partial<PageQuery>>(query: Q = {} as Q): Q & { limit: number } {
  return { ...query, limit: query.limit ?? DEFAULT_PAGE_SIZE };
}
