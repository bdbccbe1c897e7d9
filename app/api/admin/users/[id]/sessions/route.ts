import { recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { endUserSessions } from "@/lib/server/users";

/** Ends every session of the user at once (audited); answers `{ ended }`, the number that were live. */
export const DELETE = route("users:manage", { params: { id: recordId } }, async ({ params, user }) => endUserSessions(params.id, user));
