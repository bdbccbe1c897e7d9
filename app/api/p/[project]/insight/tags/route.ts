import { rangeQuery } from "@/lib/schemas/overview";
import { projectSlug } from "@/lib/schemas/params";
import { getTagFigures } from "@/lib/server/alerts/tag-figures";
import { parseQuery, route } from "@/lib/server/gate/route";

/** Sent, delivered, bounced, complained, opened and clicked per tag pair over a period, rates against the thresholds. */
export const GET = route("overview:read", { params: { project: projectSlug } }, async ({ req, project }) => getTagFigures(project, parseQuery(req, rangeQuery).range));
