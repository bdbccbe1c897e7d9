import { projectSlug } from "@/lib/schemas/params";
import { rotateWebhookSecret } from "@/lib/server/alerts/settings";
import { route } from "@/lib/server/gate/route";

/** A new signing secret for the alert webhook, answered once (admins). */
export const POST = route("alerts:write", { params: { project: projectSlug } }, async ({ user, project }) => rotateWebhookSecret(user, project));
