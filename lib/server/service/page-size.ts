import "server-only";
import type { z } from "zod";
import { DEFAULT_PAGE_SIZE, type PageQuery } from "@/lib/schemas/common";
import { callService } from "./client";
import { pageReader } from "./readers";

/**
 * The query of a list operation, always with `limit`: the interface leaves the default page
 * size open, so the dashboard never relies on one (and never on a page being "full" either —
 * only `nextCursor` says there is more).
 */
export function listQuery<Q extends Partial<PageQuery>>(query: Q = {} as Q): Q & { limit: number } {
  return { ...query, limit: query.limit ?? DEFAULT_PAGE_SIZE };
}

/**
 * A resource's list operation: a GET of `path` with the list query (`limit` always), each
 * page read tolerantly, its items as `what`s. `Q` is the list's own filters besides the page.
 */
export function pagedList<T extends z.ZodType, Q extends Partial<PageQuery> = Partial<PageQuery>>(path: string, item: T, what: string) {
  const page = pageReader(item, what);
  return (project: string, query: Q = {} as Q) => callService({ method: "GET", path, project, query: listQuery(query), schema: page });
}
