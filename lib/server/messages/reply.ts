import "server-only";
import { replyForm, type ReplyForm } from "@/lib/schemas/messages-index";
import type { Actor, Project } from "@/lib/server/access";
import { withAudit } from "@/lib/server/audit";
import { service } from "@/lib/server/service";
import { indexServiceMessage } from "./lookup";

/**
 * A reply in the thread of message `id`. The Idempotency-Key comes from the form (made once
 * when it opened), so a double click or a retried request reaches the service with the same
 * key and sends one reply. The reply is read back and indexed at once, so the conversation
 * shows it before any webhook arrives.
 */
export async function replyToMessage(project: Project, actor: Actor, id: string, input: ReplyForm): Promise<{ id: string; status: string }> {
  const form = replyForm.parse(input);
  return withAudit({ actor, action: "message.reply", project: project.externalId, target: id, detail: { subject: form.subject ?? null } }, async () => {
    const sent = await service.emails.reply(
      project.externalId,
      id,
      { text: form.text, ...(form.html ? { html: form.html } : {}), ...(form.subject ? { subject: form.subject } : {}) },
      form.idempotencyKey,
    );
    try {
      const reply = await service.emails.get(project.externalId, sent.id);
      // The service keeps the body; the index keeps what we sent even if a service does not.
      await indexServiceMessage(
        project.id,
        { ...reply, text: reply.text ?? form.text, html: reply.html ?? form.html ?? null },
        { source: "dashboard", sentBy: actor.id, idempotencyKey: form.idempotencyKey },
      );
    } catch (e) {
      // Sent is sent: a failed read-back must not look like a failed reply (the webhook indexes it).
      console.warn(`reply ${sent.id}: could not index it now: ${e instanceof Error ? e.message : String(e)}`);
    }
    return sent;
  });
}
