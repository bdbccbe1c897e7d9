import { projectSlug, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { getTemplate } from "@/lib/server/templates/manage";

export const GET = route("templates:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => getTemplate(project, params.id));
