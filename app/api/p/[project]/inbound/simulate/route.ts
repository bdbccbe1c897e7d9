import { inboundSimulateRequest } from "@/lib/schemas/emails";
import { parseBody, route } from "@/lib/server/route";
import { simulateInbound } from "@/lib/server/messages/simulate";

/** Rehearse inbound mail: support and admins only (`inbound:simulate`). */
export const POST = route<{ project: string }>("inbound:simulate", async ({ req, project, user }) =>
  simulateInbound(project, user, await parseBody(req, inboundSimulateRequest)),
);
