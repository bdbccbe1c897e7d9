import { z } from "zod";
import { parseBody, route } from "@/lib/server/route";
import { createContactImport, listJobs } from "@/lib/server/batches/jobs";

export const GET = route<{ project: string }>("contacts:write", async ({ project }) => ({ data: await listJobs(project, "contacts") }));

export const POST = route<{ project: string }>("contacts:write", async ({ req, project, user }) =>
  Response.json(await createContactImport(project, user, await parseBody(req, z.unknown())), { status: 201 }),
);
