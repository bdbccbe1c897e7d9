import "server-only";
import { sql } from "drizzle-orm";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { canonicalStatus } from "@/lib/messages/vocabulary";
import type { ReplyForm } from "@/lib/schemas/messages-index";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { enqueueReread } from "@/lib/server/message-index/reread-queue";
import { redactorFor } from "@/lib/server/redaction/redactor";
import { nudgeRereads } from "@/lib/server/message-index/reread-worker";
import { service } from "@/lib/server/service";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recipientRows } from "@/lib/server/message-index/recipients";
import { redactedMessage } from "@/lib/server/message-index/redacted";
import { findIndexedMessage } from "./search";

/**
 * A reply in the thread of message `id`. The Idempotency-Key comes from the form (made once
 * when it opened), so a double click or a retried request reaches the service with the same
 * key and sends one reply.
 *
 * The dashboard knows what the reply answers, whether or not the service has a thread field:
 * the link (`in_reply_to`) is written into the index at once, and the conversation is built
 * from those links (./conversation.ts). The reply is then read back and indexed; when that
 * read fails, a re-read is queued and the index keeps what was sent meanwhile.
 */
export async function replyToMessage(project: Project, actor: Actor, id: string, form: ReplyForm): Promise<{ id: string; status: string }> {
  return withAudit({ actor, action: "message.reply", project: project.externalId, target: id, detail: { subject: form.subject ?? null } }, async () => {
    const sent = await service.emails.reply(
      project.externalId,
      id,
      { text: form.text, ...(form.html ? { html: form.html } : {}), ...(form.subject ? { subject: form.subject } : {}) },
      form.idempotencyKey,
    );
    // Sent is sent: nothing below may make it look like a failed reply.
    try {
      await recordReply(project, actor, id, sent, form);
    } catch (e) {
      console.warn(`reply ${sent.id}: could not record it: ${safeErrorSummary(e)}`);
    }
    try {
      const reply = await service.emails.get(project.externalId, sent.id);
      // The service keeps the body; the index keeps what we sent even if a service does not.
      await indexServiceMessage(
        project.id,
        { ...reply, text: reply.text ?? form.text, html: reply.html ?? form.html ?? null },
        { source: "dashboard", sentBy: actor.id, idempotencyKey: form.idempotencyKey, inReplyTo: id },
      );
    } catch (e) {
      console.warn(`reply ${sent.id}: could not read it back now, a re-read is queued: ${safeErrorSummary(e)}`);
      await (await db()).transaction((tx) => enqueueReread(tx, project.id, sent.id, "reply", 0)).catch(() => {});
      nudgeRereads(0);
    }
    return sent;
  });
}

/** What the dashboard knows of the reply before the service says more: who, what, and which message it answers. */
async function recordReply(project: Project, actor: Actor, originalId: string, sent: { id: string; status: string }, form: ReplyForm): Promise<void> {
  const original = await findIndexedMessage(project.id, originalId);
  const inbound = original?.direction === "inbound";
  const from = (inbound ? original?.to[0] : original?.from) ?? "";
  const to = original ? (inbound ? [original.from] : original.to) : [];
  const subject = form.subject ?? (original?.subject ? `Re: ${original.subject.replace(/^re:\s*/i, "")}` : null);
  const createdAt = new Date();
  const d = await db();
  await d.transaction(async (tx) => {
    const row = redactedMessage(
      {
        id: sent.id,
        projectId: project.id,
        direction: "outbound",
        status: canonicalStatus(sent.status),
        from,
        to,
        subject,
        text: form.text,
        html: form.html ?? null,
        inReplyTo: originalId,
        idempotencyKey: form.idempotencyKey,
        sentBy: actor.id,
        source: "dashboard" as const,
        createdAt,
      },
      await redactorFor(tx, project.id),
    );
    await tx
      .insert(indexedMessages)
      .values(row)
      // A row the stream made first is now known to be the dashboard's own send: never a
      // placeholder a refusal may remove (lib/server/message-index/disowned.ts).
      .onConflictDoUpdate({
        target: indexedMessages.id,
        set: { inReplyTo: sql`excluded.in_reply_to`, source: sql`case when ${indexedMessages.source} = 'webhook' then 'dashboard' else ${indexedMessages.source} end` },
        setWhere: sql`${indexedMessages.projectId} = ${project.id}`,
      });
    const rows = recipientRows({ id: sent.id, projectId: project.id, from: row.from, to: row.to, createdAt });
    if (rows.length) await tx.insert(indexedRecipients).values(rows).onConflictDoNothing();
    await markInsightDirty(tx, project.id, [sent.id]);
  });
}
