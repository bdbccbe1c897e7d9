import { rangeQuery } from "@/lib/schemas/overview";
import { projectSlug } from "@/lib/schemas/params";
import { getOverview } from "@/lib/server/overview";
import { parseQuery, route } from "@/lib/server/gate/route";

export const GET = route("overview:read", { params: { project: projectSlug } }, async ({ req, project }) => getOverview(project, parseQuery(req, rangeQuery).range));
