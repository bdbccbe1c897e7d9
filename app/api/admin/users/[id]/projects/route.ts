import { recordId } from "@/lib/schemas/params";
import { userProjectsRequest } from "@/lib/schemas/users";
import { route } from "@/lib/server/gate/route";
import { setUserProjects } from "@/lib/server/users";

export const PUT = route("users:manage", { params: { id: recordId }, body: userProjectsRequest }, async ({ params, body, user }) =>
  setUserProjects(params.id, body, user),
);
