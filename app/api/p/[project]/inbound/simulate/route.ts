import { inboundSimulateRequest } from "@/lib/schemas/emails";
import { projectSlug } from "@/lib/schemas/params";
import { route } from "@/lib/server/gate/route";
import { simulateInbound } from "@/lib/server/messages/simulate";

/** Rehearse inbound mail: support and admins only (`inbound:simulate`). */
export const POST = route("inbound:simulate", { params: { project: projectSlug }, body: inboundSimulateRequest }, async ({ body, project, user }) =>
  simulateInbound(project, user, body),
);
