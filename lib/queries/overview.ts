import { apiQuery } from "./builders";
import { lazySchema } from "@/lib/api-client";
import type { OverviewRange } from "@/lib/schemas/overview";

const overviewSchemas = () => import("@/lib/schemas/overview");

export const overviewKeys = { detail: (project: string, range: OverviewRange) => ["overview", project, range] as const };

export function overviewQuery(project: string, range: OverviewRange) {
  return apiQuery(overviewKeys.detail(project, range), `/api/p/${encodeURIComponent(project)}/overview`, lazySchema(overviewSchemas, "overviewData"), { query: { range } }, {
    // Mail keeps moving: the numbers refresh while the screen is open.
    refetchInterval: 30_000,
  });
}
