import { updateProjectRequest } from "@/lib/schemas/projects";
import { parseBody, route } from "@/lib/server/route";
import { removeProject, updateProject } from "@/lib/server/projects";

/** `[id]` is the dashboard's project id (`Project.id`), not the external id. */
export const PATCH = route<{ id: string }>("projects:manage", async ({ req, params, user }) =>
  updateProject(params.id, await parseBody(req, updateProjectRequest), user),
);

export const DELETE = route<{ id: string }>("projects:manage", async ({ params, user }) => {
  await removeProject(params.id, user);
  return null;
});
