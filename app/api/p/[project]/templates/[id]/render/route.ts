import { parseBody, route } from "@/lib/server/route";
import { renderRequest } from "@/lib/schemas/templates-form";
import { renderTemplate } from "@/lib/server/templates/manage";

export const POST = route<{ project: string; id: string }>("templates:read", async ({ req, params, project }) =>
  renderTemplate(project, params.id, (await parseBody(req, renderRequest)).data),
);
