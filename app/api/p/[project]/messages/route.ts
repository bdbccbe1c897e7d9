import { messageListQuery } from "@/lib/schemas/messages-index";
import { projectSlug } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { listMessages } from "@/lib/server/messages/list";

/** The project's indexed messages: search, filters and cursor from the query string. */
export const GET = route("messages:read", { params: { project: projectSlug } }, async ({ req, project }) => listMessages(project, parseQuery(req, messageListQuery)));
