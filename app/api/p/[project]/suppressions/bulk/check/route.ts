import { projectSlug } from "@/lib/schemas/params";
import { bulkSuppressionCheckRequest } from "@/lib/schemas/suppressions";
import { route } from "@/lib/server/gate/route";
import { checkSuppressionList } from "@/lib/server/batches/bulk-suppressions";

/** Every line checked (address, reason, repeats, already suppressed) without adding anything. */
export const POST = route("suppressions:write", { params: { project: projectSlug }, body: bulkSuppressionCheckRequest }, async ({ body, project, user }) => checkSuppressionList(project, user, body));
