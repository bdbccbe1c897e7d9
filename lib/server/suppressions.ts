import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type AddSuppressionRequest, type Suppression, type SuppressionRow } from "@/lib/schemas/suppressions";
import { type Page } from "@/lib/schemas/common";
import { withAudit } from "./audit";
import { db } from "./db";
import { indexedMessages, indexedRecipients } from "./db/schema/messages";
import type { Actor, Project } from "./gate/guard";
import { service } from "./service/index";

const STATUS_FOR_REASON: Record<string, string> = { bounce: "bounced", complaint: "complained" };

/**
 * For bounce and complaint suppressions the service names no message (a real service may
 * not), the index is asked: the newest message to that address that ended that way.
 */
async function linkMessages(project: Project, items: Suppression[]): Promise<SuppressionRow[]> {
  const unknown = items.filter((s) => !s.messageId && STATUS_FOR_REASON[s.reason]).map((s) => s.email.toLowerCase());
  const found = new Map<string, string>();
  if (unknown.length) {
    const d = await db();
    const rows = await d
      .selectDistinctOn([indexedRecipients.email, indexedMessages.status], {
        email: indexedRecipients.email,
        status: indexedMessages.status,
        id: indexedMessages.id,
      })
      .from(indexedRecipients)
      .innerJoin(indexedMessages, eq(indexedMessages.id, indexedRecipients.messageId))
      .where(
        and(
          eq(indexedRecipients.projectId, project.id),
          inArray(indexedRecipients.email, unknown),
          inArray(indexedMessages.status, ["bounced", "complained"]),
          sql`${indexedRecipients.role} <> 'from'`,
        ),
      )
      .orderBy(indexedRecipients.email, indexedMessages.status, desc(indexedMessages.createdAt));
    for (const r of rows) found.set(`${r.email}|${r.status}`, r.id);
  }
  return items.map((s) => ({
    ...s,
    linkedMessageId: s.messageId ?? found.get(`${s.email.toLowerCase()}|${STATUS_FOR_REASON[s.reason]}`) ?? null,
  }));
}

export async function listSuppressions(project: Project, query: { cursor?: string; limit?: number }): Promise<Page<SuppressionRow>> {
  const page = await service.suppressions.list(project.externalId, query);
  return { data: await linkMessages(project, page.data), nextCursor: page.nextCursor };
}

export async function addSuppression(actor: Actor, project: Project, body: AddSuppressionRequest): Promise<Suppression> {
  const reason = body.reason ?? "manual";
  return withAudit(
    { actor, action: "suppression.create", project: project.externalId, target: body.email.toLowerCase(), detail: { reason } },
    () => service.suppressions.add(project.externalId, { email: body.email, reason }),
  );
}

