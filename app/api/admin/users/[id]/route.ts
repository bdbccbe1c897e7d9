import { recordId } from "@/lib/schemas/params";
import { updateUserRequest } from "@/lib/schemas/users";
import { route } from "@/lib/server/gate/route";
import { updateUser } from "@/lib/server/users";

/** Role, active flag or name. Refuses to leave the dashboard without an active admin. */
export const PATCH = route("users:manage", { params: { id: recordId }, body: updateUserRequest }, async ({ params, body, user }) =>
  updateUser(params.id, body, user),
);
