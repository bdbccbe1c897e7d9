import { keepPreviousData } from "@tanstack/react-query";
import { apiQuery } from "./builders";
import { api, lazySchema } from "@/lib/api-client";
import type { PresendDraft } from "@/lib/schemas/presend";

const presendSchemas = () => import("@/lib/schemas/presend");

const base = (project: string) => `/api/p/${encodeURIComponent(project)}/checks`;

export const presendKeys = {
  all: (project: string) => ["presend", project] as const,
  checks: (project: string, draft: PresendDraft | null) => [...presendKeys.all(project), "checks", draft] as const,
};

/** The checks of one draft; the same draft gives the same answer, so it is kept a while. */
export function presendQuery(project: string, draft: PresendDraft | null) {
  return apiQuery(presendKeys.checks(project, draft), base(project), lazySchema(presendSchemas, "presendResult"), { body: { draft } }, {
    enabled: draft !== null,
    staleTime: 60_000,
    // While an edited draft is re-checked, the previous findings stay on screen.
    placeholderData: keepPreviousData,
  });
}

export const presendMutations = {
  checkLinks: (project: string, urls: string[]) => api.post(`${base(project)}/links`, { urls }, { schema: lazySchema(presendSchemas, "linkCheckResult") }),
};
