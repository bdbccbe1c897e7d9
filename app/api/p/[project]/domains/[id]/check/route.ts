import { projectSlug, serviceId } from "@/lib/schemas/params";
import { checkDomain } from "@/lib/server/domains/manage";
import { route } from "@/lib/server/gate/route";

/** The live DNS comparison, run by the dashboard's own server (resolver: DNS_RESOLVER). */
export const GET = route("domains:read", { params: { project: projectSlug, id: serviceId } }, async ({ params, project }) => checkDomain(project, params.id));
