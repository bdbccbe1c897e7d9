import { auditQuery, type AuditQuery } from "@/lib/schemas/audit";

/** URL parameter → field of the audit query. `user` reads better in a pasted link than `actorId`. */
export const AUDIT_URL_PARAMS = { q: "q", action: "action", user: "actorId", project: "project", outcome: "outcome", from: "from", to: "to", cursor: "cursor" } as const;
type UrlParam = keyof typeof AUDIT_URL_PARAMS;

export type AuditFilters = Partial<Record<UrlParam, string>>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === "" ? undefined : v;
}

/**
 * The audit query from the URL. A malformed value (a hand-edited date, a stale cursor) is
 * dropped and reported with its reason, rather than failing the whole page.
 */
export function parseAuditParams(raw: Record<string, string | string[] | undefined>): { filters: AuditFilters; query: AuditQuery; invalid: { param: string; message: string }[] } {
  const filters: AuditFilters = {};
  for (const key of Object.keys(AUDIT_URL_PARAMS) as UrlParam[]) {
    const v = first(raw[key]);
    if (v !== undefined) filters[key] = v;
  }
  const invalid: { param: string; message: string }[] = [];
  const candidate: Record<string, string> = {};
  for (const [param, field] of Object.entries(AUDIT_URL_PARAMS) as [UrlParam, string][]) {
    if (filters[param] !== undefined) candidate[field] = filters[param]!;
  }
  // Drop offending fields one round at a time; every field is independent, so two rounds suffice in practice.
  for (let round = 0; round < 5; round++) {
    const result = auditQuery.safeParse(candidate);
    if (result.success) break;
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "");
      const param = (Object.entries(AUDIT_URL_PARAMS) as [UrlParam, string][]).find(([, f]) => f === field)?.[0];
      if (!param || candidate[field] === undefined) continue;
      invalid.push({ param, message: issue.message });
      delete candidate[field];
      delete filters[param];
    }
  }
  if (candidate.from && candidate.to && new Date(candidate.from) > new Date(candidate.to)) {
    invalid.push({ param: "to", message: "must be after the start date" });
    delete candidate.to;
    delete filters.to;
  }
  return { filters, query: candidate as AuditQuery, invalid };
}
