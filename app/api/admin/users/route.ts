import { createUserRequest } from "@/lib/schemas/users";
import { route } from "@/lib/server/gate/route";
import { createUser, listUsers } from "@/lib/server/users";

export const GET = route("users:manage", async () => ({ data: await listUsers() }));

/** Answers `{ user, password }`; `password` is set only when generated, and shown once. */
export const POST = route("users:manage", { body: createUserRequest }, async ({ body, user }) => {
  const created = await createUser(body, user);
  return Response.json(created, { status: 201 });
});
