import { projectSlug, recordId } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { jobResultsCsv } from "@/lib/server/batches/jobs";

/** The per-row outcomes as CSV, spreadsheet formulas neutralised (lib/batch/export.ts). */
export const GET = route("batches:send", { params: { project: projectSlug, id: recordId } }, async ({ params, project }) => {
  const { csv, fileName } = await jobResultsCsv(project, params.id);
  return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"` } });
});
