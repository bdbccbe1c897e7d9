import { replyForm } from "@/lib/schemas/messages-index";
import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { replyToMessage } from "@/lib/server/messages/reply";

/** Reply in thread: support and admins only (`messages:reply`). */
export const POST = route("messages:reply", { params: { project: projectSlug, id: serviceId }, body: replyForm }, async ({ params, body, project, user }) =>
  replyToMessage(project, user, params.id, body),
);
