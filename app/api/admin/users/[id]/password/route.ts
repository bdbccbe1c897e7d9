import { recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { resetPassword } from "@/lib/server/users";

/** Answers `{ password }` once (no-store, like every API answer); the user's sessions end. */
export const POST = route("users:manage", { params: { id: recordId } }, async ({ params, user }) => resetPassword(params.id, user));
