import { auditQuery } from "@/lib/schemas/audit";
import { parseUrlFilters } from "@/components/common/url-filters";

/** URL parameter → field of the audit query. `user` reads better in a pasted link than `actorId`. */
export const AUDIT_URL_PARAMS = { q: "q", action: "action", user: "actorId", project: "project", outcome: "outcome", from: "from", to: "to", cursor: "cursor" } as const;

export type AuditFilters = Partial<Record<keyof typeof AUDIT_URL_PARAMS, string>>;

/** The audit query from the URL; a malformed value is dropped and listed in `invalid`. */
export function parseAuditParams(raw: Record<string, string | string[] | undefined>) {
  return parseUrlFilters(raw, AUDIT_URL_PARAMS, auditQuery);
}
