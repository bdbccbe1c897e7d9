import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { exportSuppressionsCsv } from "@/lib/server/suppressions";

/** The whole list as CSV, formula-escaped (lib/batch/export.ts). */
export const GET = route("suppressions:read", { params: { project: projectSlug } }, async ({ project }) => {
  const { csv, truncated } = await exportSuppressionsCsv(project);
  const name = `suppressions-${project.externalId.replace(/[^A-Za-z0-9_-]/g, "_")}.csv`;
  return new Response(csv, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"`, "X-Export-Truncated": String(truncated) },
  });
});
