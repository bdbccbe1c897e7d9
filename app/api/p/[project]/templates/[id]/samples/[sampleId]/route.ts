import { route } from "@/lib/server/route";
import { deleteSample } from "@/lib/server/templates/manage";

export const DELETE = route<{ project: string; id: string; sampleId: string }>("templates:write", async ({ params, project, user }) => {
  await deleteSample(project, user, params.id, params.sampleId);
  return null;
});
