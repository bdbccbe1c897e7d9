import { projectSlug, serviceId } from "@/lib/schemas/params";
import { deleteWebhookBody } from "@/lib/schemas/webhooks-form";
import { route } from "@/lib/server/gate/route";
import { deleteWebhook } from "@/lib/server/webhooks";

export const DELETE = route("webhooks:write", { params: { project: projectSlug, id: serviceId }, body: deleteWebhookBody }, async ({ params, body, user, project }) =>
  deleteWebhook(user, project, params.id, body.confirmUrl).then(() => null),
);
