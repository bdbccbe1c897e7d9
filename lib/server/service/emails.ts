import "server-only";
import type { ReplyRequest, SendEmail } from "@/lib/schemas/emails";
import { callService, fetchServiceUrl } from "./client";
import { seg } from "./path";
import { attachmentsReader, batchAnswerReader, messageReader, sendAnswerReader } from "./readers";

/** Sends carry an Idempotency-Key created once per user intent (ARCHITECTURE rule 7). */
export const emails = {
  send: async (project: string, body: SendEmail, idempotencyKey: string) =>
    callService({ method: "POST", path: "/v1/emails", project, body, idempotencyKey, schema: sendAnswerReader }),

  batch: async (project: string, emails: SendEmail[], idempotencyKey?: string) =>
    callService({
      method: "POST",
      path: "/v1/emails/batch",
      project,
      body: { emails },
      idempotencyKey,
      schema: batchAnswerReader,
    }),

  get: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/emails/${seg(id)}`, project, schema: messageReader }),

  reply: async (project: string, id: string, body: ReplyRequest, idempotencyKey: string) =>
    callService({
      method: "POST",
      path: `/v1/emails/${seg(id)}/reply`,
      project,
      body,
      idempotencyKey,
      schema: sendAnswerReader,
    }),

  attachments: async (project: string, id: string) =>
    callService({ method: "GET", path: `/v1/emails/${seg(id)}/attachments`, project, schema: attachmentsReader }),

  /** Bytes of one attachment: its `url` is fetched only if it points at the service. */
  downloadAttachment: async (url: string) => fetchServiceUrl(url),
};
