import "server-only";
import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { readMessage } from "@/lib/server/message-index/read";

/**
 * `GET /api/p/<project>/messages/<id>`: one message with its events, in the project the guard
 * resolved: from the service, or from the read cache while the event stream says nothing
 * changed (lib/server/message-index/read.ts). `Cache-Control: no-cache` asks the service
 * regardless.
 *
 * The one implementation of that read, for both of its doors: the fast path that answers it
 * before Next routes it (./read-fast-path.ts), and the app route, which only delegates here
 * (for `next dev` and requests the fast path leaves to Next).
 */
export const messageReadRoute = route("messages:read", { params: { project: projectSlug, id: serviceId } }, async ({ req, params, project }) => {
  const fresh = /no-cache|no-store/i.test(req.headers.get("cache-control") ?? "");
  return readMessage(project, params.id, { fresh });
});
