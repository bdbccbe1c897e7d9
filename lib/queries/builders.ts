import { queryOptions, type QueryKey } from "@tanstack/react-query";
import type { z } from "zod";
import { api, type ApiRequest } from "@/lib/api-client";

/** The query options of one GET to the dashboard's API: the cache key, the path, the answer's schema (`lazySchema`) and the query string. */
export function getQuery<K extends QueryKey, S extends z.ZodType>(queryKey: K, path: string, schema: () => Promise<S>, query?: ApiRequest["query"]) {
  return queryOptions({ queryKey, queryFn: ({ signal }) => api.get(path, { signal, query, schema }) });
}

/** A GET whose answer is a `{ data: [...] }` list, cached as the rows themselves (what the screens pass as `initialData`). */
export function getRowsQuery<K extends QueryKey, S extends z.ZodType<{ data: unknown[] }>>(queryKey: K, path: string, schema: () => Promise<S>) {
  return queryOptions({ queryKey, queryFn: async ({ signal }): Promise<z.output<S>["data"]> => (await api.get(path, { signal, schema })).data });
}

/** Cache keys of a project's cursor-paged list: `all(project)` covers every page, so one invalidation after a write refreshes them all. */
export const cursorListKeys = <const Name extends string>(name: Name) => ({
  all: (project: string) => [name, project] as const,
  list: (project: string, cursor: string | null) => [name, project, cursor] as const,
});
