import { idParam } from "@/lib/schemas/common";
import { replyForm } from "@/lib/schemas/messages-index";
import { parseBody, route } from "@/lib/server/route";
import { replyToMessage } from "@/lib/server/messages/reply";

/** Reply in thread: support and admins only (`messages:reply`). */
export const POST = route<{ project: string; id: string }>("messages:reply", async ({ req, params, project, user }) =>
  replyToMessage(project, user, idParam.parse({ id: params.id }).id, await parseBody(req, replyForm)),
);
