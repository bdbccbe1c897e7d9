import { resubscribeRequest } from "@/lib/schemas/contacts-form";
import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { resubscribeContact } from "@/lib/server/contacts/manage";

export const POST = route("contacts:write", { params: { project: projectSlug, id: serviceId }, body: resubscribeRequest }, async ({ params, body, project, user }) =>
  resubscribeContact(project, user, params.id, body),
);
