import { exportFormat } from "@/lib/schemas/export";
import { projectSlug } from "@/lib/schemas/params";
import { SUPPRESSION_COLUMNS, suppressionPages } from "@/lib/server/export/sources";
import { exportResponse } from "@/lib/server/export/stream";
import { parseQuery, route } from "@/lib/server/gate/route";

/** `?format=csv|ndjson`: the whole suppression list, streamed (lib/server/export/). */
export const GET = route("suppressions:read", { params: { project: projectSlug } }, async ({ req, project, user }) => {
  const { format } = parseQuery(req, exportFormat);
  return exportResponse({ actor: user, project, kind: "suppressions", filter: {}, format, columns: SUPPRESSION_COLUMNS, pages: suppressionPages(project), signal: req.signal });
});
