import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { AddSuppressionRequest, Page, Suppression } from "@/lib/schemas";

export type SuppressionRow = Suppression & { linkedMessageId: string | null };

export const suppressionsBase = (project: string) => `/api/p/${encodeURIComponent(project)}/suppressions`;

export const suppressionKeys = {
  all: (project: string) => ["suppressions", project] as const,
  list: (project: string, cursor: string | null) => [...suppressionKeys.all(project), cursor] as const,
};

export function suppressionsQuery(project: string, cursor: string | null) {
  return queryOptions({
    queryKey: suppressionKeys.list(project, cursor),
    queryFn: ({ signal }) => api.get<Page<SuppressionRow>>(suppressionsBase(project), { signal, query: { cursor } }),
  });
}

export const suppressionMutations = {
  add: (project: string, body: AddSuppressionRequest) => api.post<Suppression>(suppressionsBase(project), body),
};
