import { jobRowsQuery } from "@/lib/schemas/compose";
import { projectSlug, recordId } from "@/lib/schemas/params";
import { parseQuery, route } from "@/lib/server/gate/route";
import { jobRows } from "@/lib/server/batches/jobs";

export const GET = route("contacts:write", { params: { project: projectSlug, id: recordId } }, async ({ req, params, project }) =>
  jobRows(project, params.id, parseQuery(req, jobRowsQuery), "contacts"),
);
