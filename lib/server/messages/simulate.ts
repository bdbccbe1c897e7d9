import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { message, type InboundSimulateRequest } from "@/lib/schemas/emails";
import type { SimulateResult } from "@/lib/schemas/messages-index";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { enqueueReread } from "@/lib/server/message-index/reread-queue";
import { redactorFor } from "@/lib/server/redaction/redactor";
import { nudgeRereads } from "@/lib/server/message-index/reread-worker";
import { service } from "@/lib/server/service";
import { PLACEHOLDER_SOURCE } from "@/lib/server/message-index/inbound-placeholder";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recipientRows } from "@/lib/server/message-index/recipients";
import { redactedMessage } from "@/lib/server/message-index/redacted";

/**
 * Rehearsal: the service synthesises an inbound message, and it is in Messages at once. The
 * answer's shape is "not shown", so its id is looked for the way a delivery's is
 * (lib/server/service/readers/message-id.ts). An answer that is a whole message is indexed as it is;
 * otherwise what the request said is indexed under the id and the message is read back by id
 * (the re-read queue). With no id at all, the request is indexed under an id of the
 * dashboard's own, replaced when the stream or a re-read brings the real message.
 */
export async function simulateInbound(project: Project, actor: Actor, body: InboundSimulateRequest): Promise<SimulateResult> {
  return withAudit({ actor, action: "inbound.simulate", project: project.externalId, target: body.to, detail: { from: body.from, subject: body.subject } }, async () => {
    const result = await service.inbound.simulate(project.externalId, body);
    const id = result.id ?? null;
    try {
      // The strict wire shape on purpose: a looser reader would take an answer that merely wraps
      // an id for a whole message and index it without its sender and subject.
      const whole = message.safeParse(result);
      if (id && whole.success && whole.data.id === id) await indexServiceMessage(project.id, whole.data);
      else await indexRequest(project.id, id, body);
    } catch (e) {
      // The service received it: a failed index write must not look like a failed simulation.
      console.warn(`simulate: could not index the message now: ${safeErrorSummary(e)}`);
    }
    return { id, message: result as Record<string, unknown> };
  });
}

async function indexRequest(projectId: string, id: string | null, body: InboundSimulateRequest): Promise<void> {
  const createdAt = new Date();
  const given = {
    id: id ?? `sim_${crypto.randomUUID()}`,
    projectId,
    direction: "inbound" as const,
    status: "received",
    from: body.from,
    to: [body.to],
    subject: body.subject,
    text: body.text ?? null,
    html: body.html ?? null,
    source: id ? "lookup" : PLACEHOLDER_SOURCE,
    createdAt,
    lastEventAt: createdAt,
  };
  await (await db()).transaction(async (tx) => {
    const row = redactedMessage(given, await redactorFor(tx, projectId));
    await tx.insert(indexedMessages).values(row).onConflictDoNothing({ target: indexedMessages.id });
    const rows = recipientRows({ id: row.id, projectId, from: row.from, to: row.to, createdAt });
    if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
    if (id) await enqueueReread(tx, projectId, id, "simulate", 0);
  });
  if (id) nudgeRereads(0);
}
