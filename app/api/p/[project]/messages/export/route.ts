import { exportFormat } from "@/lib/schemas/export";
import { messageListQuery } from "@/lib/schemas/messages-index";
import { projectSlug } from "@/lib/schemas/params";
import { MESSAGE_COLUMNS, messagePages } from "@/lib/server/export/messages";
import { exportResponse } from "@/lib/server/export/stream";
import { parseQuery, route } from "@/lib/server/gate/route";

const exportQuery = messageListQuery.omit({ cursor: true, limit: true }).extend(exportFormat.shape);

/** `?format=csv|ndjson&q&status&direction&tag&from&to`: every message of the current search, streamed. */
export const GET = route("messages:read", { params: { project: projectSlug } }, async ({ req, project, user }) => {
  const { format, ...filter } = parseQuery(req, exportQuery);
  return exportResponse({ actor: user, project, kind: "messages", filter, format, columns: MESSAGE_COLUMNS, pages: messagePages(project, filter), signal: req.signal });
});
