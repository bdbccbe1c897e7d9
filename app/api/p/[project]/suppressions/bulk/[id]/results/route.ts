import { projectSlug, recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { jobResultsCsv } from "@/lib/server/batches/jobs";

export const GET = route("suppressions:write", { params: { project: projectSlug, id: recordId } }, async ({ params, project }) => {
  const { csv, fileName } = await jobResultsCsv(project, params.id, "suppressions");
  return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"` } });
});
