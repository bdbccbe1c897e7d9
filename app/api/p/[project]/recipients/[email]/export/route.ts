import { exportFormat } from "@/lib/schemas/export";
import { messageListQuery } from "@/lib/schemas/messages-index";
import { emailParam, projectSlug } from "@/lib/schemas/params";
import { MESSAGE_COLUMNS, messagePages } from "@/lib/server/export/messages";
import { exportResponse } from "@/lib/server/export/stream";
import { parseQuery, route } from "@/lib/server/gate/route";

/** `?format=csv|ndjson`: every message to or from one address, as its screen lists them (the address as one phrase). */
export const GET = route("messages:read", { params: { project: projectSlug, email: emailParam } }, async ({ req, params, project, user }) => {
  const { format } = parseQuery(req, exportFormat);
  // The address as one phrase of the search language, read with the search's schema like any search.
  const { q } = messageListQuery.parse({ q: `"${params.email.toLowerCase()}"` });
  return exportResponse({ actor: user, project, kind: "recipient-messages", filter: { q }, format, columns: MESSAGE_COLUMNS, pages: messagePages(project, { q }), signal: req.signal });
});
