import { route } from "@/lib/server/route";
import { jobResultsCsv } from "@/lib/server/batches/jobs";

export const GET = route<{ project: string; id: string }>("contacts:write", async ({ params, project }) => {
  const { csv, fileName } = await jobResultsCsv(project, params.id, "contacts");
  return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"` } });
});
