import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { listSamples, saveSample } from "@/lib/server/templates/manage";

export const GET = route<{ project: string; id: string }>("templates:read", async ({ params, project }) => ({ data: await listSamples(project, params.id) }));

export const POST = route<{ project: string; id: string }>("templates:write", async ({ req, params, project, user }) =>
  Response.json(await saveSample(project, user, params.id, (await parseBody(req, z.unknown())) as never), { status: 201 }),
);
