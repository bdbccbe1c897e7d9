import { contactSearchQuery } from "@/lib/schemas/contacts-form";
import { exportFormat } from "@/lib/schemas/export";
import { projectSlug } from "@/lib/schemas/params";
import { CONTACT_COLUMNS, contactPages } from "@/lib/server/export/sources";
import { exportResponse } from "@/lib/server/export/stream";
import { parseQuery, route } from "@/lib/server/gate/route";

const exportQuery = contactSearchQuery.pick({ q: true }).extend(exportFormat.shape);

/** `?format=csv|ndjson&q`: every contact of the current search (the dashboard's index), streamed. */
export const GET = route("contacts:read", { params: { project: projectSlug } }, async ({ req, project, user }) => {
  const { format, q } = parseQuery(req, exportQuery);
  return exportResponse({ actor: user, project, kind: "contacts", filter: { q }, format, columns: CONTACT_COLUMNS, pages: contactPages(project, q), signal: req.signal });
});
