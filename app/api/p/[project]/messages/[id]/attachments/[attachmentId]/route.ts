import { z } from "zod";
import { route } from "@/lib/server/route";
import { downloadAttachment } from "@/lib/server/messages/attachment-download";

const params = z.object({ id: z.string().min(1).max(200), attachmentId: z.string().min(1).max(200) });

/** An attachment's bytes, always as a download (never rendered in the dashboard's origin). */
export const GET = route<{ project: string; id: string; attachmentId: string }>("messages:read", async ({ params: p, project }) => {
  const { id, attachmentId } = params.parse(p);
  return downloadAttachment(project, id, attachmentId);
});
