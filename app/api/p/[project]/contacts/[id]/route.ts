import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { lookupContact } from "@/lib/server/contacts/manage";

export const GET = route("contacts:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => lookupContact(project, { id: params.id }));
