import { queryOptions, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch, type ApiRequest } from "@/lib/api-client";

/** What a read sends besides its path: a query string, or — a read that posts its input (a preview, a check) — a body. */
export type ReadRequest = { query?: ApiRequest["query"]; body?: unknown };

/** The rest of a query's options (polling, staleness, placeholder, first data), typed by its answer. */
export type ReadOptions<T, K extends QueryKey> = Omit<UseQueryOptions<T, Error, T, K>, "queryKey" | "queryFn" | "initialData"> & { initialData?: T };

/**
 * The one builder of the browser's query options: the cache key, the path, the answer's schema
 * (`lazySchema`, so every answer is parsed with the route's own schema), what the read sends, and
 * the query's other options. Nothing else in lib/queries writes a queryFn
 * (tests/screen-patterns.test.ts).
 */
export function apiQuery<K extends QueryKey, S extends z.ZodType>(queryKey: K, path: string, schema: () => Promise<S>, request: ReadRequest = {}, options: ReadOptions<z.output<S>, K> = {}) {
  return queryOptions<z.output<S>, Error, z.output<S>, K>({
    ...options,
    queryKey,
    queryFn: ({ signal }) => apiFetch(path, { method: request.body === undefined ? "GET" : "POST", ...request, signal, schema }),
  });
}

/** apiQuery for an answer that is a `{ data: [...] }` list, cached as the rows themselves (what the screens pass as `initialData`). */
export function apiRowsQuery<K extends QueryKey, S extends z.ZodType<{ data: unknown[] }>>(queryKey: K, path: string, schema: () => Promise<S>) {
  return queryOptions({ queryKey, queryFn: async ({ signal }): Promise<z.output<S>["data"]> => (await apiFetch(path, { signal, schema })).data });
}

/** Cache keys of a project's cursor-paged list: `all(project)` covers every page, so one invalidation after a write refreshes them all. */
export const cursorListKeys = <const Name extends string>(name: Name) => ({
  all: (project: string) => [name, project] as const,
  list: (project: string, cursor: string | null) => [name, project, cursor] as const,
});
