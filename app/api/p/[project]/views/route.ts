import { projectSlug } from "@/lib/schemas/params";
import { createSavedViewRequest } from "@/lib/schemas/saved-views";
import { route } from "@/lib/server/gate/route";
import { createSavedView, listSavedViews } from "@/lib/server/saved-views";

export const GET = route("messages:read", { params: { project: projectSlug } }, async ({ project, user }) => ({ data: await listSavedViews(project, user) }));

export const POST = route("messages:read", { params: { project: projectSlug }, body: createSavedViewRequest }, async ({ body, project, user }) =>
  Response.json(await createSavedView(project, user, body), { status: 201 }),
);
