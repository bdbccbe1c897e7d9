import { pageQuery } from "@/lib/schemas/common";
import { projectSlug } from "@/lib/schemas/params";
import { addSuppressionRequest } from "@/lib/schemas/suppressions";
import { parseQuery, route } from "@/lib/server/gate/route";
import { addSuppression, listSuppressions } from "@/lib/server/suppressions";

export const GET = route("suppressions:read", { params: { project: projectSlug } }, async ({ req, project }) => listSuppressions(project, parseQuery(req, pageQuery)));

export const POST = route("suppressions:write", { params: { project: projectSlug }, body: addSuppressionRequest }, async ({ body, user, project }) =>
  Response.json(await addSuppression(user, project, body), { status: 201 }),
);
