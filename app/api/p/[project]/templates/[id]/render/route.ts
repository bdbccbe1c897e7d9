import { projectSlug, serviceId } from "@/lib/schemas/params";
import { renderRequest } from "@/lib/schemas/templates-form";
import { route } from "@/lib/server/gate/route";
import { renderTemplate } from "@/lib/server/templates/manage";

export const POST = route("templates:read", { params: { project: projectSlug, id: serviceId }, body: renderRequest }, async ({ params, body, project }) =>
  renderTemplate(project, params.id, body.data),
);
