import { z } from "zod";
import { address, emailAddress, isoDateTime, jsonObject, tag } from "./common";
import { messageEvent } from "./events";
import { MAX_ATTACHMENTS_BYTES, MAX_BATCH_SIZE, MAX_RECIPIENTS } from "./limits";

/** The status words (the dashboard's vocabulary reads any service's words onto them; service/ types its statuses with them). */
export { MESSAGE_STATUSES, type MessageStatus } from "../message-status";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
export function base64Size(content: string): number {
  const padding = content.endsWith("==") ? 2 : content.endsWith("=") ? 1 : 0;
  return Math.floor((content.length * 3) / 4) - padding;
}

/** Attachment as supplied on send: `content` is base64 of the bytes. */
export const attachmentInput = z.object({
  filename: z.string().trim().min(1, { error: "is required" }).max(255).refine((v) => !/[\r\n/\\]/.test(v), {
    error: "must not contain line breaks or slashes",
  }),
  content: z.string().regex(BASE64, { error: "must be base64-encoded" }),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, { error: "must be a MIME type like application/pdf" })
    .default("application/octet-stream"),
});
export type AttachmentInput = z.input<typeof attachmentInput>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers that the service sets itself and a client may not override. */
export const RESERVED_HEADERS = ["from", "to", "cc", "bcc", "subject", "date", "message-id", "content-type", "mime-version", "content-transfer-encoding"];
export const customHeaders = z.record(
  z.string().regex(HEADER_NAME, { error: "header names may contain only letters, digits and -" }).refine(
    (name) => !RESERVED_HEADERS.includes(name.toLowerCase()),
    { error: "is set by the service and cannot be overridden" },
  ),
  z.string().max(998).refine((v) => !/[\r\n]/.test(v), { error: "header values must not contain line breaks" }),
);

const recipients = (label: string) =>
  z.array(address).max(MAX_RECIPIENTS, { error: `at most ${MAX_RECIPIENTS} ${label} recipients` });

export const sendEmailBase = z.object({
  from: address,
  to: z.array(address, { error: "is required" }).min(1, { error: "needs at least one recipient" }).max(MAX_RECIPIENTS, {
    error: `at most ${MAX_RECIPIENTS} recipients`,
  }),
  cc: recipients("cc").optional(),
  bcc: recipients("bcc").optional(),
  replyTo: z.array(address).max(10).optional(),
  subject: z.string().max(998).refine((v) => !/[\r\n]/.test(v), { error: "must not contain line breaks" }).optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  templateId: z.string().min(1).max(200).optional(),
  data: jsonObject.optional(),
  headers: customHeaders.optional(),
  tags: z.array(tag).max(50).optional(),
  attachments: z.array(attachmentInput).max(100).optional(),
  scheduledAt: isoDateTime.optional(),
});

/** Checks that span fields; `now` is injectable so tests and the form agree on "the future". */
export function refineSend<T extends z.infer<typeof sendEmailBase>>(value: T, ctx: z.RefinementCtx, now = Date.now()) {
  if (!value.templateId && !value.subject) {
    ctx.addIssue({ code: "custom", path: ["subject"], message: "is required unless templateId is given" });
  }
  if (!value.templateId && value.html === undefined && value.text === undefined) {
    ctx.addIssue({ code: "custom", path: ["html"], message: "html, text or templateId is required" });
  }
  if (value.scheduledAt && Date.parse(value.scheduledAt) <= now) {
    ctx.addIssue({ code: "custom", path: ["scheduledAt"], message: "must be in the future" });
  }
  const bytes = (value.attachments ?? []).reduce((sum, a) => sum + base64Size(a.content), 0);
  if (bytes > MAX_ATTACHMENTS_BYTES) {
    ctx.addIssue({
      code: "custom",
      path: ["attachments"],
      message: `attachments may total at most ${MAX_ATTACHMENTS_BYTES / 1024 / 1024} MB`,
    });
  }
}

export const sendEmailRequest = sendEmailBase.superRefine((v, ctx) => refineSend(v, ctx));
export type SendEmailRequest = z.input<typeof sendEmailRequest>;
export type SendEmail = z.output<typeof sendEmailRequest>;

export const sendEmailResponse = z.object({ id: z.string(), status: z.string() });
export type SendEmailResponse = z.infer<typeof sendEmailResponse>;

export const batchRequest = z.object({
  emails: z
    .array(z.unknown(), { error: "is required" })
    .min(1, { error: "needs at least one email" })
    .max(MAX_BATCH_SIZE, { error: `at most ${MAX_BATCH_SIZE} emails per batch` }),
});
export const batchItemResult = z.object({
  id: z.string().optional(),
  status: z.string().optional(),
  error: z.object({ message: z.string(), code: z.string(), param: z.string().nullable().optional() }).optional(),
});
export const batchResponse = z.object({ data: z.array(batchItemResult) });
export type BatchResponse = z.infer<typeof batchResponse>;

export const replyRequest = z.object({
  html: z.string().optional(),
  text: z.string().optional(),
  subject: z.string().max(998).refine((v) => !/[\r\n]/.test(v), { error: "must not contain line breaks" }).optional(),
  from: address.optional(),
}).refine((v) => v.html !== undefined || v.text !== undefined, { path: ["text"], error: "text or html is required" });
export type ReplyRequest = z.infer<typeof replyRequest>;

/**
 * A message as retrieved. Only the interface's fields are required; the local service
 * adds the rest, and the dashboard treats them as optional so a real service works too.
 */
export const message = z.object({
  id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string().nullable(),
  status: z.string(),
  direction: z.enum(["inbound", "outbound"]),
  createdAt: z.string(),
  events: z.array(messageEvent).default([]),
  cc: z.array(z.string()).optional(),
  bcc: z.array(z.string()).optional(),
  replyTo: z.array(z.string()).optional(),
  html: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  tags: z.array(tag).optional(),
  scheduledAt: z.string().nullable().optional(),
  inReplyTo: z.string().nullable().optional(),
  threadId: z.string().nullable().optional(),
  templateId: z.string().nullable().optional(),
});
export type Message = z.infer<typeof message>;

export const attachmentMeta = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type AttachmentMeta = z.infer<typeof attachmentMeta>;
export const attachmentList = z.object({ data: z.array(attachmentMeta) });

export const inboundSimulateRequest = z.object({
  to: emailAddress,
  from: emailAddress,
  subject: z.string({ error: "is required" }).max(998),
  html: z.string().optional(),
  text: z.string().optional(),
});
export type InboundSimulateRequest = z.infer<typeof inboundSimulateRequest>;
