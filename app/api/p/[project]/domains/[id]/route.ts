import { projectSlug, serviceId } from "@/lib/schemas/params";
import { getDomainDetail } from "@/lib/server/domains/manage";
import { route } from "@/lib/server/gate/route";

/** The interface has no "get domain": the server function finds it in the paged list. */
export const GET = route("domains:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => getDomainDetail(project, params.id));
