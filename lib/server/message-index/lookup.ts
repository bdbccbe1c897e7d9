import "server-only";
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { eq, sql } from "drizzle-orm";
import { normalizeEvent } from "@/lib/messages/event-element";
import { canonicalStatus } from "@/lib/messages/vocabulary";
import type { Message } from "@/lib/schemas/emails";
import { db, type Db } from "@/lib/server/db";
import { indexedEvents, indexedMessages, indexedRecipients, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { redactorFor, type Redactor } from "@/lib/server/redaction/redactor";
import { erasureOf, withoutErased, type Erasure } from "./tombstones";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { replaceInboundPlaceholder } from "./inbound-placeholder";
import { recipientRows } from "./recipients";
import { redactedMessage } from "./redacted";

type Extras = {
  source?: "lookup" | "dashboard";
  sentBy?: string | null;
  idempotencyKey?: string | null;
  /** What the dashboard knows about the message that the service may not say (a reply's original). */
  inReplyTo?: string | null;
};

const toDate = (iso: string | undefined | null): Date | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t);
};

/**
 * The events of a retrieved message as index rows, each keyed by its content so a second read
 * adds nothing, and the newest time any of them carried. The content is taken after the
 * project's erasures, so the key of an event that named an erased address names it neither.
 */
function readEventRows(projectId: string, m: Message, fallbackAt: Date, redact: Redactor): { rows: (typeof indexedEvents.$inferInsert)[]; newest: Date | null } {
  const seen = new Map<string, number>();
  let newest: number | null = null;
  const rows = (m.events as unknown[]).map((raw) => {
    const e = normalizeEvent(raw);
    const timed = toDate(e.createdAt);
    if (timed) newest = Math.max(newest ?? 0, timed.getTime());
    const at = timed ?? fallbackAt;
    const details = redact.json(e.data);
    const content = JSON.stringify([e.type, at.toISOString(), details]);
    // Two identical events (two opens without a time) stay two: the nth copy has its own key.
    const n = (seen.get(content) ?? 0) + 1;
    seen.set(content, n);
    const key = createHash("sha256").update(`${m.id}\u0000${content}\u0000${n}`).digest("base64url").slice(0, 32);
    const data = e.rawType ? { ...details, type: redact.text(e.rawType) } : details;
    return { messageId: m.id, projectId, type: e.type, occurredAt: at, data, webhookId: `read:${key}`, origin: "read" as const };
  });
  return { rows, newest: newest === null ? null : new Date(newest) };
}

/**
 * What the index would hold for a message the service returned: its row, its read events,
 * whether the service gave it a time — after the project's erasures (the redactor, and the
 * addresses an erasure took off this very message).
 */
function indexRowOf(projectId: string, m: Message, extras: Extras, redact: Redactor, erased: Erasure | null) {
  const hasTime = toDate(m.createdAt) !== null;
  const at = toDate(m.createdAt) ?? new Date();
  const { rows: events, newest } = readEventRows(projectId, m, at, redact);
  const row: typeof indexedMessages.$inferInsert = redactedMessage({
    id: m.id,
    projectId,
    direction: m.direction,
    status: canonicalStatus(m.status),
    from: m.from,
    to: m.to,
    cc: m.cc ?? [],
    bcc: m.bcc ?? [],
    subject: m.subject,
    tags: m.tags ?? [],
    html: m.html ?? null,
    text: m.text ?? null,
    headers: m.headers ?? null,
    templateId: m.templateId ?? null,
    threadId: m.threadId ?? null,
    // The dashboard's own link wins: a service may put an RFC Message-ID where the interface's id belongs.
    inReplyTo: extras.inReplyTo ?? m.inReplyTo ?? null,
    scheduledAt: toDate(m.scheduledAt),
    idempotencyKey: extras.idempotencyKey ?? null,
    sentBy: extras.sentBy ?? null,
    source: extras.source ?? "lookup",
    createdAt: at,
    lastEventAt: newest,
    checkedAt: new Date(),
  }, redact);
  // A message erased on a recipient's request keeps the address off it (an erasure from
  // before the addresses were kept sealed is known by its hashes alone).
  if (erased) {
    row.to = withoutErased(row.to as string[], erased);
    row.cc = withoutErased(row.cc as string[], erased);
    row.bcc = withoutErased(row.bcc as string[], erased);
  }
  return { row, events, newest, hasTime, at };
}

/** Equal as the index stores them (jsonb keeps no key order and drops undefined). */
const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
/** A field the refresh below keeps when the service omits it. */
const keptOrSame = (answer: unknown, indexed: unknown) => answer == null || sameJson(answer, indexed);

/**
 * Whether writing this answer of the service (no extras: a read) would change the indexed
 * row or add events — field by field, the refresh rules of indexServiceMessage below. A read
 * that brings nothing new writes nothing (issue 15: one read per message). The answer is
 * compared as it would be written — after the project's erasures (`redact`, `erased`: what
 * readIndexedDetail read) — since the row holds it so: the service keeps the address.
 */
export function answerDiffersFromIndex(indexed: IndexedMessageRow, readEventIds: ReadonlySet<string>, m: Message, redact: Redactor, erased: Erasure | null): boolean {
  const { row, events, newest, hasTime, at } = indexRowOf(indexed.projectId, m, {}, redact, erased);
  const to = row.to as string[];
  return (
    row.status !== indexed.status ||
    row.from !== indexed.from ||
    (to.length > 0 && !sameJson(to, indexed.to)) ||
    !keptOrSame(row.subject, indexed.subject) ||
    !keptOrSame(m.threadId, indexed.threadId) ||
    (indexed.inReplyTo === null && Boolean(m.inReplyTo)) ||
    (m.cc !== undefined && !sameJson(row.cc, indexed.cc)) ||
    (m.bcc !== undefined && !sameJson(row.bcc, indexed.bcc)) ||
    !keptOrSame(row.html, indexed.html) ||
    !keptOrSame(row.text, indexed.text) ||
    !keptOrSame(row.headers, indexed.headers) ||
    (row.tags!.length > 0 && !sameJson(row.tags, indexed.tags)) ||
    !keptOrSame(m.templateId, indexed.templateId) ||
    (hasTime && at.getTime() !== indexed.createdAt.getTime()) ||
    (newest !== null && (indexed.lastEventAt === null || newest > indexed.lastEventAt)) ||
    events.some((e) => !readEventIds.has(e.webhookId!))
  );
}

/**
 * A message the service returned, written into the index: added when the index did not know
 * it (source `lookup`), refreshed otherwise. The service is the truth for status (read into
 * the dashboard's words), addresses, subject, thread and events; the body the dashboard
 * recorded is kept when the service omits it, and so are the links the dashboard recorded
 * itself (a reply's original). `lastEventAt` is the newest event time, or, when the events
 * carry no time, the moment the status was seen to change — "last changed" for isSettled.
 * Answers the row as written: null when an erasure keeps the message out, or another project
 * holds its id. The project's erased addresses are taken out of all of it first
 * (lib/server/redaction/redactor.ts).
 */
export async function indexServiceMessage(projectId: string, m: Message, extras: Extras = {}, tx?: Db): Promise<IndexedMessageRow | null> {
  const write = async (t: Db) => {
    const redact = await redactorFor(t, projectId);
    // A message erased whole on a recipient's request stays out.
    const erased = await erasureOf(t, projectId, m.id);
    if (erased?.deleted) return null;
    const { row, events, hasTime, at } = indexRowOf(projectId, m, extras, redact, erased);
    const [written] = await t
      .insert(indexedMessages)
      .values(row)
      .onConflictDoUpdate({
        target: indexedMessages.id,
        set: {
          status: sql`excluded.status`,
          from: sql`excluded.from_address`,
          to: sql`case when jsonb_array_length(excluded.to_addresses) > 0 then excluded.to_addresses else ${indexedMessages.to} end`,
          subject: sql`coalesce(excluded.subject, ${indexedMessages.subject})`,
          threadId: sql`coalesce(excluded.thread_id, ${indexedMessages.threadId})`,
          inReplyTo: extras.inReplyTo ? sql`excluded.in_reply_to` : sql`coalesce(${indexedMessages.inReplyTo}, excluded.in_reply_to)`,
          // A service that does not list cc/bcc leaves what the dashboard recorded.
          cc: m.cc ? sql`excluded.cc` : sql`${indexedMessages.cc}`,
          bcc: m.bcc ? sql`excluded.bcc` : sql`${indexedMessages.bcc}`,
          html: sql`coalesce(excluded.html, ${indexedMessages.html})`,
          text: sql`coalesce(excluded.text, ${indexedMessages.text})`,
          headers: sql`coalesce(excluded.headers, ${indexedMessages.headers})`,
          tags: sql`case when jsonb_array_length(excluded.tags) > 0 then excluded.tags else ${indexedMessages.tags} end`,
          templateId: sql`coalesce(excluded.template_id, ${indexedMessages.templateId})`,
          // A service that gives no time of its own must not move the row's time on every read.
          createdAt: hasTime ? sql`excluded.created_at` : sql`${indexedMessages.createdAt}`,
          lastEventAt: sql`greatest(${indexedMessages.lastEventAt}, coalesce(excluded.last_event_at, case when ${indexedMessages.status} is distinct from excluded.status then now() end))`,
          checkedAt: sql`excluded.checked_at`,
          sentBy: sql`coalesce(${indexedMessages.sentBy}, excluded.sent_by)`,
          idempotencyKey: sql`coalesce(${indexedMessages.idempotencyKey}, excluded.idempotency_key)`,
          updatedAt: new Date(),
        },
        // Ids are the service's; one that another project already holds is not overwritten.
        setWhere: eq(indexedMessages.projectId, projectId),
      })
      .returning();
    const rows = recipientRows({ id: m.id, projectId, from: row.from, to: row.to as string[], cc: row.cc as string[], bcc: row.bcc as string[], createdAt: at });
    if (rows.length) await t.insert(indexedRecipients).values(rows).onConflictDoNothing();
    if (events.length) await t.insert(indexedEvents).values(events).onConflictDoNothing({ target: [indexedEvents.projectId, indexedEvents.webhookId] });
    if (m.direction === "inbound") await replaceInboundPlaceholder(t, projectId, { id: m.id, from: row.from, subject: row.subject ?? null });
    else await markInsightDirty(t, projectId, [m.id]);
    return written ?? null;
  };
  return tx ? write(tx) : (await db()).transaction(write);
}
