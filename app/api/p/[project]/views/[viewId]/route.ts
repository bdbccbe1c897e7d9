import { projectSlug, recordId } from "@/lib/schemas/params";
import { updateSavedViewRequest } from "@/lib/schemas/saved-views";
import { route } from "@/lib/server/gate/route";
import { deleteSavedView, updateSavedView } from "@/lib/server/saved-views";

export const PATCH = route("messages:read", { params: { project: projectSlug, viewId: recordId }, body: updateSavedViewRequest }, async ({ params, body, project, user }) =>
  updateSavedView(project, user, params.viewId, body),
);

export const DELETE = route("messages:read", { params: { project: projectSlug, viewId: recordId } }, async ({ params, project, user }) => {
  await deleteSavedView(project, user, params.viewId);
  return null;
});
