import { z } from "zod";
import { findMessageId } from "./message-id";
import type { AttachmentMeta, BatchResponse, Message, SendEmailResponse } from "@/lib/schemas/emails";
import type { MessageEvent } from "@/lib/schemas/events";
import { normalizeEvent } from "@/lib/messages/event-element";
import { canonicalStatus, isKnownStatus } from "@/lib/messages/vocabulary";
import { summarizeErrorBody } from "../error-body";
import { idReader, intReader, isRecord, listOf, readId, readNullableText, readTime, text } from "./common";

/** An event as the dashboard keeps it: the interface's type, the service's own word when it differs, time, details. */
export type ReadEvent = MessageEvent & { rawType?: string };

/** `Ann <ann@x.io>` for an address object with a name, the bare address otherwise (the form `from` has in ours). */
export function addressText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (!isRecord(value)) return null;
  const email = [value.email, value.address, value.addr].find((v): v is string => typeof v === "string" && v.trim() !== "")?.trim();
  if (!email) return null;
  const name = typeof value.name === "string" ? value.name.trim() : "";
  if (!name) return email;
  const quoted = /[",.:;<>@[\]()\\]/.test(name) ? `"${name.replace(/(["\\])/g, "\\$1")}"` : name;
  return `${quoted} <${email}>`;
}

/** Recipients as strings: a list of strings or address objects, or one of either. Recipients are bare addresses, as in ours. */
function readRecipients(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list
    .map((v) => (isRecord(v) ? (addressText({ email: v.email ?? v.address ?? v.addr }) ?? null) : addressText(v)))
    .filter((v): v is string => Boolean(v));
}

/** Statuses the dashboard knows are read into its word (`DELIVERED` → `delivered`); others are kept as the service wrote them. */
export function readStatus(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  return isKnownStatus(value) ? canonicalStatus(value) : value.trim();
}

const readDirection = (v: unknown): Message["direction"] =>
  typeof v === "string" && /^(inbound|incoming|in|received|receive)$/i.test(v.trim()) ? "inbound" : "outbound";

/** Every event element, whatever its fields (lib/messages/event-element.ts). */
function readEvents(value: unknown): ReadEvent[] {
  return (Array.isArray(value) ? value : []).map((raw) => {
    const e = normalizeEvent(raw);
    return { type: e.type, ...(e.rawType ? { rawType: e.rawType } : {}), ...(e.createdAt ? { createdAt: e.createdAt } : {}), data: e.data };
  });
}
export const eventsReader = z.unknown().optional().transform(readEvents);

function readHeaders(value: unknown): Record<string, string> | undefined {
  if (Array.isArray(value)) {
    const out: Record<string, string> = {};
    for (const h of value) if (isRecord(h) && typeof h.name === "string" && h.value != null) out[h.name] = String(h.value);
    return out;
  }
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v != null).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)]));
}

function readTags(value: unknown): { name: string; value: string }[] | undefined {
  if (isRecord(value)) return Object.entries(value).map(([name, v]) => ({ name, value: v == null ? "" : String(v) }));
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((t) => (isRecord(t) && typeof t.name === "string" ? [{ name: t.name, value: t.value == null ? "" : String(t.value) }] : []));
}

/**
 * A retrieved message. Required by the dashboard: an id. `from` may be text or an address
 * object, `to` strings or address objects, `status` any word, `createdAt` missing (the first
 * event's time then, else empty); events of any shape; fields beyond the interface's are read
 * when present and ignored when odd.
 *
 * One transform over plain readers, not an object of field schemas: every field but the id
 * takes any value, so parsing field by field bought nothing and cost the running dashboard
 * about a third of this read's time (260 against 170 µs per message, timed inside the
 * dashboard under `npm run bench:gateway`'s no-cache read, which is held to 1.5x the direct call).
 */
export const messageReader = z.unknown().transform((value, ctx): Message & { events: ReadEvent[] } => {
  if (!isRecord(value)) {
    ctx.addIssue({ code: "custom", message: "a message must be an object" });
    return z.NEVER;
  }
  const id = readId(value.id);
  if (id === null) {
    ctx.addIssue({ code: "custom", path: ["id"], message: "a message needs an id: non-empty text or a number" });
    return z.NEVER;
  }
  const events = readEvents(value.events);
  const times = events.map((e) => e.createdAt).filter((t): t is string => Boolean(t)).sort();
  const lastEvent = events.at(-1);
  const headers = readHeaders(value.headers);
  const tags = readTags(value.tags);
  return {
    id,
    from: addressText(value.from) ?? "",
    to: readRecipients(value.to),
    ...(value.cc !== undefined ? { cc: readRecipients(value.cc) } : {}),
    ...(value.bcc !== undefined ? { bcc: readRecipients(value.bcc) } : {}),
    ...(value.replyTo !== undefined ? { replyTo: readRecipients(value.replyTo) } : {}),
    subject: readNullableText(value.subject),
    // The interface requires a status; without one, the newest event says the most.
    status: readStatus(value.status) ?? (lastEvent ? canonicalStatus(lastEvent.type) : "queued"),
    direction: readDirection(value.direction),
    createdAt: readTime(value.createdAt) ?? times[0] ?? "",
    events,
    html: readNullableText(value.html),
    text: readNullableText(value.text),
    ...(headers ? { headers } : {}),
    ...(tags ? { tags } : {}),
    scheduledAt: readTime(value.scheduledAt) ?? null,
    inReplyTo: readId(value.inReplyTo),
    threadId: readId(value.threadId),
    templateId: readId(value.templateId),
  };
});

/** The answer to a send or a reply: an id; the status `queued` when the service names none. */
export const sendAnswerReader = z
  .object({ id: idReader, status: z.unknown().optional() })
  .transform((a): SendEmailResponse => ({ id: a.id, status: readStatus(a.status) ?? "queued" }));

const batchEntry = z.unknown().optional().transform((entry): BatchResponse["data"][number] => {
  if (!isRecord(entry)) return { error: { message: "The service gave no result for this email.", code: "unknown" } };
  const id = idReader.safeParse(entry.id).data;
  const status = readStatus(entry.status) ?? undefined;
  const failed = entry.error ?? entry.errors ?? (entry.success === false || entry.ok === false ? entry : undefined);
  if (failed !== undefined && failed !== null && failed !== false) {
    const said = typeof failed === "string" ? { message: failed, code: null, param: null } : summarizeErrorBody(failed);
    return { ...(id ? { id } : {}), error: { message: said.message ?? "The service refused this email.", code: said.code ?? "refused", param: said.param } };
  }
  return id ? { id, ...(status ? { status } : {}) } : { error: { message: "The service gave no id for this email.", code: "unknown" } };
});

/** A batch answer: one entry per email, in order; success and failure read from any of the usual layouts. */
export const batchAnswerReader = z
  .union([z.object({ data: z.array(z.unknown()) }), z.array(z.unknown()).transform((data) => ({ data }))])
  .transform((b): BatchResponse => ({ data: b.data.map((e) => batchEntry.parse(e)) }));

const attachmentReader = z
  .object({ id: idReader, filename: text.optional(), name: text.optional(), contentType: text.optional(), size: intReader, url: z.string().min(1) })
  .transform((a): AttachmentMeta => ({
    id: a.id,
    filename: a.filename ?? a.name ?? a.id,
    contentType: a.contentType ?? "application/octet-stream",
    size: a.size ?? 0,
    url: a.url,
  }));

/** Attachment metadata; one without a `url` cannot be downloaded and is left out. */
export const attachmentsReader = z
  .union([z.object({ data: z.unknown().optional() }), z.array(z.unknown()).transform((data) => ({ data }))])
  .transform((l) => ({ data: listOf(attachmentReader, "attachment").parse(l.data) }));

/**
 * What a simulated inbound message answer carries that the dashboard uses: its id, when any
 * (the shape is "not shown"). Looked for the way a delivery's message id is (documented in
 * lib/server/service/readers/message-id.ts), then one level down in any wrapper (`{inbound: {messageId}}`).
 */
export const simulatedReader = z.unknown().optional().transform((value): { id?: string } & Record<string, unknown> => {
  if (!isRecord(value)) return {};
  const inner = isRecord(value.data) && !("id" in value) ? value.data : value;
  const found =
    findMessageId(value, "inbound_received") ??
    Object.values(value).filter(isRecord).map((wrapped) => findMessageId(wrapped, "inbound_received")).find(Boolean) ??
    null;
  return { ...inner, ...(found ? { id: found.id } : {}) };
});
