import { recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { resetUserFactors } from "@/lib/server/two-factor";

/** Removes the user's second factor and ends their sessions (audited); answers `{ ended }`. */
export const DELETE = route("users:manage", { params: { id: recordId } }, async ({ params, user }) => resetUserFactors(params.id, user));
