import { projectSlug } from "@/lib/schemas/params";
import { bulkSuppressionRequest } from "@/lib/schemas/suppressions";
import { route } from "@/lib/server/gate/route";
import { listJobs } from "@/lib/server/batches/jobs";
import { createSuppressionJob } from "@/lib/server/batches/bulk-suppressions";

export const GET = route("suppressions:write", { params: { project: projectSlug } }, async ({ project }) => ({ data: await listJobs(project, "suppressions") }));

/** The list checked again, stored, and added by a background job (audited with its counts). */
export const POST = route("suppressions:write", { params: { project: projectSlug }, body: bulkSuppressionRequest }, async ({ body, project, user }) =>
  Response.json(await createSuppressionJob(project, user, body), { status: 201 }),
);
