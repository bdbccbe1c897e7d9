import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { createSendJob, listJobs } from "@/lib/server/batches/jobs";

export const GET = route<{ project: string }>("batches:send", async ({ project }) => ({ data: await listJobs(project, "send") }));

/** Starts a job: the file is checked again here, and refused when it no longer sends the confirmed count. */
export const POST = route<{ project: string }>("batches:send", async ({ req, project, user }) =>
  Response.json(await createSendJob(project, user, await parseBody(req, z.unknown())), { status: 201 }),
);
