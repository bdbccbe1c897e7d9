import { z } from "zod";
import { LOCAL_DATETIME, localToUtcIso } from "@/lib/messages/local-time";
import { address, tag, type Address } from "./common";
import { batchRowStatus, csvMapping } from "./batch";
import { attachmentInput, customHeaders, refineSend, sendEmailBase, sendEmailRequest, type SendEmail } from "./emails";

/**
 * The compose form's shape, built from the wire schema (sendEmailBase): the form holds
 * what a person edits — header rows, merge variables as text, a local send time in a named
 * zone — and `toSendRequest` turns it into the exact POST /v1/emails body. Field checks are
 * the wire schema's own; only the form-only fields are new.
 */
const headerName = customHeaders.keyType;
const headerValue = customHeaders.valueType;

export const headerRow = z.object({ name: headerName, value: headerValue });
export type HeaderRow = z.infer<typeof headerRow>;

/** An attachment as the form keeps it: the wire fields plus the decoded size to show. */
export const composeAttachment = attachmentInput.extend({ size: z.number().int().nonnegative() });

/** `2026-03-01T09:30` as an <input type="datetime-local"> gives it. */

export const composeForm = sendEmailBase
  .omit({ headers: true, scheduledAt: true, data: true, attachments: true, tags: true })
  .extend({
    mode: z.enum(["content", "template"]),
    tags: z.array(tag),
    headers: z.array(headerRow),
    attachments: z.array(composeAttachment),
    /** Merge variables of the chosen template, as typed. */
    data: z.record(z.string(), z.string()),
    sendAt: z.enum(["now", "later"]),
    scheduledLocal: z.string(),
    timeZone: z.string().min(1),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.headers.forEach((h, i) => {
      const key = h.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["headers", i, "name"], message: "is given twice" });
      seen.add(key);
    });
    if (v.mode === "template" && !v.templateId) {
      ctx.addIssue({ code: "custom", path: ["templateId"], message: "choose a template" });
      return;
    }
    if (v.sendAt === "later") {
      if (!LOCAL_DATETIME.test(v.scheduledLocal)) {
        ctx.addIssue({ code: "custom", path: ["scheduledLocal"], message: "choose a date and time" });
        return;
      }
    }
    let wire: SendEmail;
    try {
      wire = toSendRequestUnchecked(v);
    } catch {
      ctx.addIssue({ code: "custom", path: ["timeZone"], message: "is not a known time zone" });
      return;
    }
    // The wire schema's cross-field rules, with its paths mapped onto the form's fields.
    refineSend(wire, {
      addIssue: (issue: { path?: PropertyKey[]; message?: string }) => {
        const path = (issue.path ?? []).map((p) => (p === "scheduledAt" ? "scheduledLocal" : p === "html" && v.mode === "template" ? "templateId" : p));
        ctx.addIssue({ code: "custom", path, message: issue.message ?? "is not valid" });
      },
    } as unknown as z.RefinementCtx);
  });
export type ComposeForm = z.infer<typeof composeForm>;

export { localToUtcIso } from "@/lib/messages/local-time";

const trimmedOrUndefined = (s: string | undefined) => (s && s.trim() ? s : undefined);

function toSendRequestUnchecked(v: ComposeForm): SendEmail {
  const body: SendEmail = { from: v.from, to: v.to };
  if (v.cc?.length) body.cc = v.cc;
  if (v.bcc?.length) body.bcc = v.bcc;
  if (v.replyTo?.length) body.replyTo = v.replyTo;
  if (v.mode === "template") {
    body.templateId = v.templateId;
    const data = Object.fromEntries(Object.entries(v.data).filter(([, value]) => value !== ""));
    if (Object.keys(data).length) body.data = data;
    if (trimmedOrUndefined(v.subject)) body.subject = v.subject;
  } else {
    body.subject = v.subject;
    if (trimmedOrUndefined(v.html)) body.html = v.html;
    if (trimmedOrUndefined(v.text)) body.text = v.text;
  }
  if (v.tags.length) body.tags = v.tags;
  if (v.headers.length) body.headers = Object.fromEntries(v.headers.map((h) => [h.name, h.value]));
  if (v.attachments.length) {
    body.attachments = v.attachments.map(({ filename, content, contentType }) => ({ filename, content, contentType }));
  }
  if (v.sendAt === "later") body.scheduledAt = localToUtcIso(v.scheduledLocal, v.timeZone);
  return body;
}

/** The POST /v1/emails body of a valid form, checked once more with the wire schema itself. */
export function toSendRequest(v: ComposeForm): SendEmail {
  return sendEmailRequest.parse(toSendRequestUnchecked(v));
}

export { recipientCount } from "@/lib/messages/recipient-count";

export const emptyAddress = (): z.infer<typeof address> => ({ email: "" });

/**
 * "Batch from a file": what every row shares — the wire fields of a send minus the
 * recipient and its merge data, which come from the row.
 */
export const batchContent = sendEmailBase.pick({ from: true, replyTo: true, subject: true, html: true, text: true, templateId: true, tags: true });
export type BatchContent = z.infer<typeof batchContent>;

const csvText = z
  .string({ error: "is required: upload a CSV file or paste rows" })
  .min(1, { error: "is empty: upload a CSV file or paste rows" })
  .max(15 * 1024 * 1024, { error: "is larger than 15 MB" });

/** The file as uploaded (the server parses and checks it itself, with the same code as the browser). */
const fileFields = {
  csv: csvText,
  fileName: z.string().max(255).optional(),
  mapping: csvMapping,
};

export const batchCheckRequest = z.object({ ...fileFields, content: batchContent });
export const batchJobRequest = batchCheckRequest.extend({
  /** The number of messages the user confirmed; the job is refused when the file says otherwise. */
  confirmCount: z.number({ error: "confirm the number of messages" }).int().nonnegative(),
});
export type BatchCheckRequest = z.input<typeof batchCheckRequest>;
export type BatchJobRequest = z.input<typeof batchJobRequest>;

export const contactImportRequest = z.object({ ...fileFields, subscribed: z.boolean().default(true), confirmCount: z.number().int().nonnegative().optional() });
export type ContactImportRequest = z.input<typeof contactImportRequest>;

/** Rows of a job, page by page in file order; `status` may repeat. */
export const jobRowsQuery = z.object({
  status: z.union([batchRowStatus, z.array(batchRowStatus)]).optional().transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
  after: z.coerce.number({ error: "must be a row number" }).int().min(0).optional(),
  limit: z.coerce.number({ error: "must be a whole number from 1 to 500" }).int().min(1).max(500).default(100),
}).transform(({ status, ...rest }) => ({ ...rest, statuses: status }));

/**
 * What the compose screen (and the batch wizard) is handed by its page shell: the verified
 * domains and templates to choose from, and a message to start from ("send again", "edit").
 */
export type ComposeOptions = {
  domains: string[];
  templates: { id: string; name: string; slug: string | null; variables?: string[] }[];
  /** Set when a list could not be read: the form still works, with free typing. */
  warnings: string[];
};

export type ComposePrefill = {
  sourceId: string;
  from?: Address;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  replyTo: Address[];
  subject?: string;
  html?: string;
  text?: string;
  templateId?: string;
  /** The template's merge data, when the dashboard sent the message and so knows it. */
  data: Record<string, string>;
  tags: { name: string; value: string }[];
  headers: { name: string; value: string }[];
};
