import { projectSlug, recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { processAgain } from "@/lib/server/event-stream/process-again";

/** "Process again" on one logged delivery (lib/server/event-stream/process-again.ts says what runs). */
export const POST = route("webhooks:write", { params: { project: projectSlug, id: recordId } }, async ({ params, user, project }) => processAgain(project, user, params.id));
