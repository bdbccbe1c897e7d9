import { queryOptions } from "@tanstack/react-query";
import { api, lazySchema } from "@/lib/api-client";
import type { AddSuppressionRequest } from "@/lib/schemas/suppressions";

const suppressionsSchemas = () => import("@/lib/schemas/suppressions");

export const suppressionsBase = (project: string) => `/api/p/${encodeURIComponent(project)}/suppressions`;

export const suppressionKeys = {
  all: (project: string) => ["suppressions", project] as const,
  list: (project: string, cursor: string | null) => [...suppressionKeys.all(project), cursor] as const,
};

export function suppressionsQuery(project: string, cursor: string | null) {
  return queryOptions({
    queryKey: suppressionKeys.list(project, cursor),
    queryFn: ({ signal }) => api.get(suppressionsBase(project), { signal, query: { cursor }, schema: lazySchema(suppressionsSchemas, "suppressionRowPage") }),
  });
}

export const suppressionMutations = {
  add: (project: string, body: AddSuppressionRequest) => api.post(suppressionsBase(project), body, { schema: lazySchema(suppressionsSchemas, "suppression") }),
};
