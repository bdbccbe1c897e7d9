import { route } from "@/lib/server/route";
import { retryFailed } from "@/lib/server/batches/jobs";

export const POST = route<{ project: string; id: string }>("contacts:write", async ({ params, project, user }) => retryFailed(project, user, params.id, "contacts"));
