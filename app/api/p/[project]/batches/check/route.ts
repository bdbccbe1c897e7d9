import { batchCheckRequest } from "@/lib/schemas/compose";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { checkBatch } from "@/lib/server/batches/jobs";

/** Every row checked (addresses, suppressions, the send itself) without storing or sending anything. */
export const POST = route("batches:send", { params: { project: projectSlug }, body: batchCheckRequest }, async ({ body, project, user }) => checkBatch(project, user, body));
