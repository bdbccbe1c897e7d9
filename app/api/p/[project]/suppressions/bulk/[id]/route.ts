import { projectSlug, recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { getJob } from "@/lib/server/batches/jobs";

export const GET = route("suppressions:write", { params: { project: projectSlug, id: recordId } }, async ({ params, project }) => getJob(project, params.id, "suppressions"));
