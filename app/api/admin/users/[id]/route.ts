import { updateUserRequest } from "@/lib/schemas/users";
import { parseBody, route } from "@/lib/server/route";
import { updateUser } from "@/lib/server/users";

/** Role, active flag or name. Refuses to leave the dashboard without an active admin. */
export const PATCH = route<{ id: string }>("users:manage", async ({ req, params, user }) =>
  updateUser(params.id, await parseBody(req, updateUserRequest), user),
);
