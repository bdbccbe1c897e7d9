import { checkDomain } from "@/lib/server/domains/manage";
import { route } from "@/lib/server/route";

/** The live DNS comparison, run by the dashboard's own server (resolver: DNS_RESOLVER). */
export const GET = route<{ project: string; id: string }>("domains:read", async ({ params, project }) => checkDomain(project, params.id));
