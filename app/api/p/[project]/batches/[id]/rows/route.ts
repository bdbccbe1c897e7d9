import { parseQuery, route } from "@/lib/server/route";
import { jobRowsQuery } from "@/lib/schemas/compose";
import { jobRows } from "@/lib/server/batches/jobs";

export const GET = route<{ project: string; id: string }>("batches:send", async ({ req, params, project }) => jobRows(project, params.id, parseQuery(req, jobRowsQuery)));
