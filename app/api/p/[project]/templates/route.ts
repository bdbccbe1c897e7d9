import { parseQuery, route } from "@/lib/server/route";
import { pageQuery } from "@/lib/schemas";
import { listTemplates } from "@/lib/server/templates/manage";

export const GET = route<{ project: string }>("templates:read", async ({ req, project }) => listTemplates(project, parseQuery(req, pageQuery)));
