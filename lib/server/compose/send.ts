import "server-only";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/errors";
import type { SendEmail, SendEmailResponse } from "@/lib/schemas/emails";
import type { Actor, Project } from "@/lib/server/gate/access";
import { withAudit } from "@/lib/server/audit";
import { recordSentMessage } from "@/lib/server/message-index/record";
import { service } from "@/lib/server/service";

/** Printable ASCII, as the header allows; the browser makes one per compose session. */
export const idempotencyKeyHeader = z
  .string({ error: "Idempotency-Key: the header is required (one key per message you mean to send)" })
  .regex(/^[\x21-\x7e]{8,255}$/, { error: "Idempotency-Key: must be 8 to 255 printable characters" });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The service answers 409 `idempotency_in_flight` while the first request with a key is
 * still being handled (a double click that got past the form). The second caller waits
 * for the first to finish and then receives its stored result: one message either way.
 */
export async function sendOnce<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (isAppError(e) && e.code === "idempotency_in_flight" && attempt < 20) {
        await sleep(150);
        continue;
      }
      throw e;
    }
  }
}

/** One message as composed: validated with the wire schema, sent once, recorded in the index. */
export async function sendComposed(
  project: Project,
  actor: Actor,
  request: SendEmail,
  idempotencyKey: string | null,
  source: "compose" | "template_test" = "compose",
): Promise<SendEmailResponse> {
  const key = idempotencyKeyHeader.safeParse(idempotencyKey ?? undefined);
  if (!key.success) throw new AppError(400, "validation_error", key.error.issues[0].message, "Idempotency-Key");
  const recipients = request.to.length + (request.cc?.length ?? 0) + (request.bcc?.length ?? 0);
  return withAudit(
    {
      actor,
      action: source === "compose" ? "message.send" : "template.test_send",
      project: project.externalId,
      target: request.to.map((a) => a.email).join(", ").slice(0, 300),
      detail: { recipients, scheduledAt: request.scheduledAt ?? null, templateId: request.templateId ?? null, attachments: request.attachments?.length ?? 0 },
    },
    async () => {
      const sent = await sendOnce(() => service.emails.send(project.externalId, request, key.data));
      await recordSentMessage({
        projectId: project.id,
        messageId: sent.id,
        request,
        sentBy: actor.id,
        idempotencyKey: key.data,
        source: "dashboard",
        status: sent.status,
      });
      return sent;
    },
  );
}
