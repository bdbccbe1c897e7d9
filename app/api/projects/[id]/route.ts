import { recordId } from "@/lib/schemas/params";
import { updateProjectRequest } from "@/lib/schemas/projects";
import { route } from "@/lib/server/gate/route";
import { removeProject, updateProject } from "@/lib/server/projects";

/** `[id]` is the dashboard's project id (`Project.id`), not the external id. */
export const PATCH = route("projects:manage", { params: { id: recordId }, body: updateProjectRequest }, async ({ params, body, user }) =>
  updateProject(params.id, body, user),
);

export const DELETE = route("projects:manage", { params: { id: recordId } }, async ({ params, user }) => {
  await removeProject(params.id, user);
  return null;
});
