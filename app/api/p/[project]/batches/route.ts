import { batchJobRequest } from "@/lib/schemas/compose";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { createSendJob, listJobs } from "@/lib/server/batches/jobs";

export const GET = route("batches:send", { params: { project: projectSlug } }, async ({ project }) => ({ data: await listJobs(project, "send") }));

/** Starts a job: the file is checked again here, and refused when it no longer sends the confirmed count. */
export const POST = route("batches:send", { params: { project: projectSlug }, body: batchJobRequest }, async ({ body, project, user }) =>
  Response.json(await createSendJob(project, user, body), { status: 201 }),
);
