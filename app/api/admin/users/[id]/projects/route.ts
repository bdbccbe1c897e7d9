import { userProjectsRequest } from "@/lib/schemas/users";
import { parseBody, route } from "@/lib/server/route";
import { setUserProjects } from "@/lib/server/users";

export const PUT = route<{ id: string }>("users:manage", async ({ req, params, user }) =>
  setUserProjects(params.id, await parseBody(req, userProjectsRequest), user),
);
