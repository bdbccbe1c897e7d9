import { z } from "zod";
import { isoDateTime, NO_NUL, pageQuery, page } from "./common";
import { attachmentMeta, MESSAGE_STATUSES, message } from "./emails";
import { messageEvent } from "./events";
import { suppression } from "./suppressions";
import { recipientEngagement } from "./insight";
import { indexedContactView } from "./contacts-form";
import { SEARCH_QUERY_LIMITS } from "@/lib/messages/search-query/limits";
import { tokenize } from "@/lib/messages/search-query/tokenize";

/**
 * Shapes of the dashboard's own message index (issue 4): the search the messages screen
 * sends, the rows it gets back, the message screen's payload, and the reply form.
 */
export const MESSAGE_DIRECTIONS = ["inbound", "outbound"] as const;

/**
 * A tag as read back: any name and value a service returns (the `tag` schema restricts only
 * what is sent), so a tag of another service's making never breaks a screen.
 */
export const tagView = z.object({ name: z.string(), value: z.string() });

export const messageListQuery = pageQuery.extend({
  /**
   * The search language (lib/messages/search-query): free words, phrases and field terms; a
   * pasted message id opens it. Bounded before any parsing beyond the count of terms.
   */
  q: z
    .string()
    .trim()
    .max(SEARCH_QUERY_LIMITS.maxLength, { error: `must be at most ${SEARCH_QUERY_LIMITS.maxLength} characters`, abort: true })
    .regex(NO_NUL.pattern, { error: NO_NUL.error })
    .refine((v) => !tokenize(v, SEARCH_QUERY_LIMITS.maxTerms).more, { error: `must have at most ${SEARCH_QUERY_LIMITS.maxTerms} terms` })
    .optional(),
  status: z.enum(MESSAGE_STATUSES, { error: `must be one of: ${MESSAGE_STATUSES.join(", ")}` }).optional(),
  direction: z.enum(MESSAGE_DIRECTIONS, { error: "must be inbound or outbound" }).optional(),
  /** `name` or `name:value`. */
  tag: z
    .string()
    .trim()
    .max(513)
    .regex(/^[A-Za-z0-9_-]+(:[A-Za-z0-9_-]*)?$/, { error: "must be a tag name, or name:value" })
    .optional(),
  from: isoDateTime.optional(),
  to: isoDateTime.optional(),
});
export type MessageListQuery = z.input<typeof messageListQuery>;
/** As the route or the page read it: what the search's server functions take. */
export type MessageListQueryParsed = z.output<typeof messageListQuery>;

export const indexedMessage = z.object({
  id: z.string(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  status: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string().nullable(),
  tags: z.array(tagView),
  createdAt: z.string(),
  lastEventAt: z.string().nullable(),
  source: z.string(),
  threadId: z.string().nullable(),
});
export type IndexedMessage = z.infer<typeof indexedMessage>;

export const messageListPage = page(indexedMessage);
export type MessageListPage = z.infer<typeof messageListPage>;

/** A term of `q` the dashboard did not understand: left out of the search, explained beside the box. */
export const searchProblem = z.object({ term: z.string(), why: z.string(), example: z.string() });

/** The Messages search's answer: the page, the terms it left out, and a pasted id to open. */
export const messageSearchPage = messageListPage.extend({ problems: z.array(searchProblem), openId: z.string().nullable() });
export type MessageSearchPage = z.infer<typeof messageSearchPage>;

/** An attachment as the browser sees it: downloaded through the dashboard, never from the service. */
export const attachmentView = attachmentMeta.omit({ url: true }).extend({ downloadPath: z.string() });
export type AttachmentView = z.infer<typeof attachmentView>;

/**
 * A message as the dashboard hands it to the browser: the wire message, with each event's
 * own word kept beside the interface's type (lib/server/service/readers).
 */
export const messageView = message.extend({
  events: z.array(messageEvent.extend({ rawType: z.string().optional() })).default([]),
  tags: z.array(tagView).optional(),
});
export type MessageView = z.infer<typeof messageView>;

/**
 * Everything the message screen shows. `settled` stops the auto-refresh: a known final status,
 * or no change for a while (lib/messages/vocabulary.ts isSettled); `lastChangedAt` is the
 * newest time the dashboard knows of (its newest event, else its creation).
 */
export const messageDetail = z.object({
  message: messageView,
  settled: z.boolean(),
  lastChangedAt: z.string().nullable(),
  /** Where the index learned of it; null when only the service knows it. */
  source: z.string().nullable(),
  sentBy: z.string().nullable(),
  attachments: z.array(attachmentView),
  /** Could the attachment list be read (the service may not offer it)? */
  attachmentsError: z.string().nullable(),
  /** The conversation, oldest first, this message included. */
  thread: z.array(indexedMessage),
  /** Suppressions of the recipients, when the outcome depends on them. */
  suppressions: z.array(suppression),
});
export type MessageDetail = z.infer<typeof messageDetail>;

export const replyForm = z
  .object({
    text: z.string().trim().min(1, { error: "write the reply" }).max(200_000),
    html: z.string().max(2_000_000).optional(),
    subject: z
      .string()
      .trim()
      .max(998)
      .refine((v) => !/[\r\n]/.test(v), { error: "must not contain line breaks" })
      .optional(),
    /** Made once when the form opens, so a double click or retry sends one reply. */
    // Sent as the Idempotency-Key header: printable ASCII only (anything else cannot be a header value).
    idempotencyKey: z.string().trim().min(8, { error: "is required" }).max(200).regex(/^[\x21-\x7e]+$/, { error: "must be printable ASCII characters" }),
  });
export type ReplyForm = z.infer<typeof replyForm>;

export const replyResult = z.object({ id: z.string(), status: z.string() });

export const recipientView = z.object({
  email: z.string(),
  messages: messageListPage,
  suppression: suppression.nullable(),
  /** Null when the suppression list could not be read. */
  suppressionError: z.string().nullable(),
  engagement: recipientEngagement,
  /** From the dashboard's contacts index (what it created, imported or looked up); null when unknown there. */
  contact: indexedContactView
    .pick({ id: true, email: true, firstName: true, lastName: true, subscribed: true, unsubscribedAt: true })
    .nullable(),
});
export type RecipientView = z.infer<typeof recipientView>;

export const simulateResult = z.object({ id: z.string().nullable(), message: z.record(z.string(), z.unknown()) });
export type SimulateResult = z.infer<typeof simulateResult>;

export const eventStreamState = z.object({
  connected: z.boolean(),
  url: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type EventStreamState = z.infer<typeof eventStreamState>;
