import "server-only";
import { inboundSimulateRequest, type InboundSimulateRequest } from "@/lib/schemas/emails";
import { message } from "@/lib/schemas/emails";
import type { SimulateResult } from "@/lib/schemas/messages-index";
import type { Actor, Project } from "@/lib/server/access";
import { withAudit } from "@/lib/server/audit";
import { service } from "@/lib/server/service";
import { indexServiceMessage } from "./lookup";

/** Rehearsal: the service synthesises an inbound message; it is indexed straight away when its shape allows. */
export async function simulateInbound(project: Project, actor: Actor, input: InboundSimulateRequest): Promise<SimulateResult> {
  const body = inboundSimulateRequest.parse(input);
  return withAudit({ actor, action: "inbound.simulate", project: project.externalId, target: body.to, detail: { from: body.from, subject: body.subject } }, async () => {
    const result = await service.inbound.simulate(project.externalId, body);
    const id = typeof result.id === "string" ? result.id : null;
    const parsed = message.safeParse(result);
    if (parsed.success) await indexServiceMessage(project.id, parsed.data).catch(() => {});
    return { id, message: result as Record<string, unknown> };
  });
}
