import { idParam } from "@/lib/schemas/common";
import { route } from "@/lib/server/route";
import { getMessageDetail } from "@/lib/server/messages/detail";

/** What the message screen shows (timeline, attachments, thread); polled until final. */
export const GET = route<{ project: string; id: string }>("messages:read", async ({ params, project }) =>
  getMessageDetail(project, idParam.parse({ id: params.id }).id),
);
