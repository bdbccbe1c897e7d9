import { contactImportRequest } from "@/lib/schemas/compose";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { createContactImport, listJobs } from "@/lib/server/batches/jobs";

export const GET = route("contacts:write", { params: { project: projectSlug } }, async ({ project }) => ({ data: await listJobs(project, "contacts") }));

export const POST = route("contacts:write", { params: { project: projectSlug }, body: contactImportRequest }, async ({ body, project, user }) =>
  Response.json(await createContactImport(project, user, body), { status: 201 }),
);
