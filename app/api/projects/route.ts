import { createProjectRequest } from "@/lib/schemas/projects";
import { route } from "@/lib/server/gate/route";
import { listProjectsForUser, registerProject } from "@/lib/server/projects";

/** The projects the signed-in user may open (every role has overview:read). */
export const GET = route("overview:read", async ({ user }) => ({ data: await listProjectsForUser(user) }));

/** Register a project after checking it with the service. */
export const POST = route("projects:manage", { body: createProjectRequest }, async ({ body, user }) => {
  const project = await registerProject(body, user);
  return Response.json(project, { status: 201 });
});
