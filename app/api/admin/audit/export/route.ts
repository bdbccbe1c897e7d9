import { auditQuery } from "@/lib/schemas/audit";
import { exportFormat } from "@/lib/schemas/export";
import { AUDIT_COLUMNS, auditPages } from "@/lib/server/export/sources";
import { exportResponse } from "@/lib/server/export/stream";
import { parseQuery, route } from "@/lib/server/gate/route";

const exportQuery = auditQuery.omit({ cursor: true, limit: true }).extend(exportFormat.shape);

/** `?format=csv|ndjson&q&action&actorId&project&outcome&from&to`: the whole filtered audit log (admins), streamed. */
export const GET = route("audit:read", async ({ req, user }) => {
  const { format, ...filter } = parseQuery(req, exportQuery);
  return exportResponse({ actor: user, project: null, kind: "audit", filter, format, columns: AUDIT_COLUMNS, pages: auditPages(filter), signal: req.signal });
});
