import { deleteWebhookBody } from "@/lib/schemas/webhooks-form";
import { parseBody, route } from "@/lib/server/route";
import { deleteWebhook } from "@/lib/server/webhooks";

export const DELETE = route<{ project: string; id: string }>("webhooks:write", async ({ req, user, project, params }) =>
  deleteWebhook(user, project, params.id, (await parseBody(req, deleteWebhookBody)).confirmUrl).then(() => null),
);
