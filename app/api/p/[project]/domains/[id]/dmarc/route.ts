import { projectSlug, serviceId } from "@/lib/schemas/params";
import { getDmarcView } from "@/lib/server/dmarc/view";
import { route } from "@/lib/server/gate/route";

/** The domain's DMARC aggregate reports, read from the dashboard's own store (lib/server/dmarc/). */
export const GET = route("domains:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => getDmarcView(project, params.id));
