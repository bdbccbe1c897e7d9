import { projectSlug, serviceId } from "@/lib/schemas/params";
import { sampleRequest } from "@/lib/schemas/templates-form";
import { route } from "@/lib/server/gate/route";
import { listSamples, saveSample } from "@/lib/server/templates/manage";

export const GET = route("templates:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => ({ data: await listSamples(project, params.id) }));

export const POST = route("templates:write", { params: { project: projectSlug, id: serviceId }, body: sampleRequest }, async ({ params, body, project, user }) =>
  Response.json(await saveSample(project, user, params.id, body), { status: 201 }),
);
