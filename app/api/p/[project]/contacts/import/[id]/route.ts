import { route } from "@/lib/server/route";
import { getJob } from "@/lib/server/batches/jobs";

export const GET = route<{ project: string; id: string }>("contacts:write", async ({ params, project }) => getJob(project, params.id, "contacts"));
