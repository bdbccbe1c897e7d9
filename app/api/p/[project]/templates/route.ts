import { pageQuery } from "@/lib/schemas/common";
import { projectSlug } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { listTemplates } from "@/lib/server/templates/manage";

export const GET = route("templates:read", { params: { project: projectSlug } }, async ({ req, project }) => listTemplates(project, parseQuery(req, pageQuery)));
