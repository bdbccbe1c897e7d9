import { z } from "zod";
import { isoDateTime } from "./common";

export const AUDIT_OUTCOMES = ["success", "failure"] as const;

export { CORE_AUDIT_ACTIONS } from "./words";

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  project: z.string().nullable(),
  target: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  /** Free text over action, actor, project, target and detail. */
  q: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  actorId: z.string().trim().max(200).optional(),
  project: z.string().trim().max(200).optional(),
  outcome: z.enum(AUDIT_OUTCOMES, { error: "must be success or failure" }).optional(),
  from: isoDateTime.optional(),
  to: isoDateTime.optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce
    .number({ error: "must be a whole number from 1 to 100" })
    .int({ error: "must be a whole number from 1 to 100" })
    .min(1, { error: "must be a whole number from 1 to 100" })
    .max(100, { error: "must be a whole number from 1 to 100" })
    .default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;
/** As the route or the page read it: what listAudit takes. */
export type AuditQueryParsed = z.output<typeof auditQuery>;

export const auditPage = z.object({ data: z.array(auditEntry), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPage>;
