import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { getMessageDetail } from "@/lib/server/messages/detail";

/** What the message screen shows (timeline, attachments, thread); polled until final. */
export const GET = route("messages:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => getMessageDetail(project, params.id));
