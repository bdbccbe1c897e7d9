import { queryOptions } from "@tanstack/react-query";
import { api, lazySchema } from "@/lib/api-client";
import type { OverviewRange } from "@/lib/schemas/overview";

const overviewSchemas = () => import("@/lib/schemas/overview");

export const overviewKeys = { detail: (project: string, range: OverviewRange) => ["overview", project, range] as const };

export function overviewQuery(project: string, range: OverviewRange) {
  return queryOptions({
    queryKey: overviewKeys.detail(project, range),
    queryFn: ({ signal }) => api.get(`/api/p/${encodeURIComponent(project)}/overview`, { signal, query: { range }, schema: lazySchema(overviewSchemas, "overviewData") }),
    // Mail keeps moving: the numbers refresh while the screen is open.
    refetchInterval: 30_000,
  });
}
