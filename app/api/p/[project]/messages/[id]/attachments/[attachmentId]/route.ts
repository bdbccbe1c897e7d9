import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { downloadAttachment } from "@/lib/server/messages/attachment-download";

/** An attachment's bytes, always as a download (never rendered in the dashboard's origin). */
export const GET = route("messages:read", { params: { project: projectSlug, id: serviceId, attachmentId: serviceId } }, async ({ params, project }) =>
  downloadAttachment(project, params.id, params.attachmentId),
);
