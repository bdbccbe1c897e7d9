import { projectSlug, recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { retryFailed } from "@/lib/server/batches/jobs";

export const POST = route("contacts:write", { params: { project: projectSlug, id: recordId } }, async ({ params, project, user }) => retryFailed(project, user, params.id, "contacts"));
