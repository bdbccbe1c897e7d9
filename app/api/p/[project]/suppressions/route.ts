import { z } from "zod";
import { pageQuery } from "@/lib/schemas";
import { parseBody, parseQuery, route } from "@/lib/server/route";
import { addSuppression, listSuppressions } from "@/lib/server/suppressions";

export const GET = route<{ project: string }>("suppressions:read", async ({ req, project }) => listSuppressions(project, parseQuery(req, pageQuery)));

export const POST = route<{ project: string }>("suppressions:write", async ({ req, user, project }) =>
  Response.json(await addSuppression(user, project, await parseBody(req, z.unknown())), { status: 201 }),
);
