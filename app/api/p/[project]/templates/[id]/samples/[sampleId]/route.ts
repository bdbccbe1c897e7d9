import { projectSlug, recordId, serviceId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { deleteSample } from "@/lib/server/templates/manage";

export const DELETE = route("templates:write", { params: { project: projectSlug, id: serviceId, sampleId: recordId } }, async ({ params, project, user }) => {
  await deleteSample(project, user, params.id, params.sampleId);
  return null;
});
