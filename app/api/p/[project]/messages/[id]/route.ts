import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { readMessage } from "@/lib/server/message-index/read";

/**
 * One message with its events, in the project the guard resolved: from the service, or from
 * the read cache while the event stream says nothing changed (lib/server/message-index/read.ts).
 * `Cache-Control: no-cache` asks the service regardless.
 */
export const GET = route("messages:read", { params: { project: projectSlug, id: serviceId } }, async ({ req, params, project }) => {
  const fresh = /no-cache|no-store/i.test(req.headers.get("cache-control") ?? "");
  return readMessage(project, params.id, { fresh });
});
