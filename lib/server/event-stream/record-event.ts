import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import { canonicalEventType } from "@/lib/messages/vocabulary";
import { db, type Db } from "@/lib/server/db";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { foldStatus } from "@/lib/server/messages/fold";
import { replaceInboundPlaceholder } from "@/lib/server/messages/inbound-placeholder";
import { recipientRows } from "@/lib/server/messages/recipients";
import { enqueueEventRereads } from "@/lib/server/rereads/queue";
import { deletedByErasure } from "@/lib/server/retention/tombstones";
import type { DeliveredEvent } from "./payload";

/** One event of the stream, under the key it is taken once by (the delivery's `webhook-id`, `#n` for a list's element). */
export type StreamEvent = { projectId: string; key: string; event: DeliveredEvent };

type RecipientRow = typeof indexedRecipients.$inferInsert;

/**
 * One event of the stream into the index, in one transaction: the event row (taken once per
 * project and key: a redelivery changes nothing), a provisional picture of the message (its
 * status folded from the event; addresses and subject only where the payload had them and
 * the index did not), and a re-read of the message from the service, coalesced with any
 * other event for it. The re-read's answer replaces the provisional picture.
 *
 * True when the event was new.
 */
export async function recordEvent(projectId: string, key: string, e: DeliveredEvent, rereadInMs: number): Promise<boolean> {
  const [fresh] = await recordEvents([{ projectId, key, event: e }], rereadInMs);
  return fresh!;
}

/** Several events (of any projects and messages) in one transaction: see recordEventsIn. */
export async function recordEvents(events: StreamEvent[], rereadInMs: number): Promise<boolean[]> {
  if (events.length === 0) return [];
  return (await db()).transaction((tx) => recordEventsIn(tx, events, rereadInMs));
}

/** The message as the provisional picture has it, and what the events did to it. */
type Picture = {
  status: string;
  from: string;
  to: string[];
  subject: string | null;
  html: string | null;
  text: string | null;
  createdAt: Date;
  lastEventAt: Date | null;
};

/**
 * Events in arrival order, with the outcome of recording them one after another — the same
 * rows, the same folded status, the same re-reads — written with a few multi-row statements
 * (the ingest's group commit, ./group-commit.ts, hands a batch of concurrent deliveries here):
 *
 * 1. the event rows, once per project and key (a key repeated within the batch counts once);
 * 2. per message with new events: a row inserted when the index does not have it (its picture
 *    folded from those events as if the first created it and the others updated it), or the
 *    row, locked, updated by the same rules one event at a time: the status folded, addresses
 *    and subject filled only where empty, `created_at` the earliest timed event, `last_event_at`
 *    the latest (or now, for an event without a time). An id another project holds keeps its
 *    row untouched (the event is kept);
 * 3. the addresses a step filled in, into `indexed_recipients`;
 * 4. one re-read per message.
 *
 * Rows are locked in id order, so two instances' batches on one Postgres do not deadlock.
 * True per event when it was new.
 */
export async function recordEventsIn(tx: Db, events: StreamEvent[], rereadInMs: number): Promise<boolean[]> {
  const now = new Date();
  const fresh = await insertEvents(tx, events, now);

  // New events per message, in arrival order.
  const groups = new Map<string, { projectId: string; messageId: string; events: DeliveredEvent[] }>();
  events.forEach((s, i) => {
    if (!fresh[i]) return;
    const k = `${s.projectId}\u0000${s.event.messageId}`;
    const g = groups.get(k);
    if (g) g.events.push(s.event);
    else groups.set(k, { projectId: s.projectId, messageId: s.event.messageId, events: [s.event] });
  });
  if (groups.size === 0) return fresh;
  const list = [...groups.values()].sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
  const recipients: RecipientRow[] = [];

  // Messages the index does not have yet: inserted as the events picture them.
  const candidates = list.map((g) => {
    const [first, ...rest] = g.events;
    const direction = first!.direction ?? (canonicalEventType(first!.type).startsWith("inbound_") ? "inbound" : "outbound");
    const folded = foldStatus("queued", first!.type);
    const at = first!.occurredAt ?? now;
    const picture: Picture = {
      // Inbound mail the dashboard hears of is received, whatever the event's word.
      status: direction === "inbound" && folded === "queued" ? "received" : folded,
      from: first!.from ?? "",
      to: first!.to ?? [],
      subject: first!.subject,
      html: first!.html,
      text: first!.text,
      createdAt: at,
      lastEventAt: at,
    };
    const rows = recipientRows({ id: g.messageId, projectId: g.projectId, from: first!.from ?? "", to: first!.to ?? [], createdAt: at });
    for (const e of rest) rows.push(...apply(picture, e, g, now));
    return { g, direction, picture, rows, erased: false };
  });
  const inserted = new Set<string>();
  for (let i = 0; i < candidates.length; i += 1000) {
    const chunk = candidates.slice(i, i + 1000);
    const created = await tx
      .insert(indexedMessages)
      .values(
        chunk.map(({ g, direction, picture: p }) => ({
          id: g.messageId,
          projectId: g.projectId,
          direction,
          status: p.status,
          from: p.from,
          to: p.to,
          subject: p.subject,
          html: p.html,
          text: p.text,
          source: "webhook",
          createdAt: p.createdAt,
          lastEventAt: p.lastEventAt,
        })),
      )
      .onConflictDoNothing({ target: indexedMessages.id })
      .returning({ id: indexedMessages.id, projectId: indexedMessages.projectId });
    for (const r of created) inserted.add(`${r.projectId}\u0000${r.id}`);
  }
  await dropErased(tx, events, fresh, candidates, inserted);
  const existing: typeof list = [];
  for (const c of candidates) {
    if (c.erased) continue;
    if (!inserted.has(`${c.g.projectId}\u0000${c.g.messageId}`)) {
      existing.push(c.g);
      continue;
    }
    recipients.push(...c.rows);
    const first = c.g.events[0]!;
    if (c.direction === "inbound") await replaceInboundPlaceholder(tx, c.g.projectId, { id: c.g.messageId, from: first.from, subject: first.subject });
  }

  // Messages the index has: locked, then updated event by event.
  if (existing.length) {
    const ids = [...new Set(existing.map((g) => g.messageId))];
    const current = new Map<string, { projectId: string; status: string; from: string; to: string[] }>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = rowsOf<{ id: string; project_id: string; status: string; from_address: string; to_addresses: string[] | string }>(
        await tx.execute(sql`
          select id, project_id, status, from_address, to_addresses from indexed_messages
           where id in (${sql.join(ids.slice(i, i + 1000).map((id) => sql`${id}`), sql`, `)})
           order by id for update`),
      );
      for (const r of rows) {
        const to = typeof r.to_addresses === "string" ? (JSON.parse(r.to_addresses) as string[]) : r.to_addresses;
        current.set(r.id, { projectId: r.project_id, status: r.status, from: r.from_address, to });
      }
    }
    const updates: SQL[] = [];
    for (const g of existing) {
      const row = current.get(g.messageId);
      // An id another project holds: the event is kept, the other project's message is not touched.
      if (!row || row.projectId !== g.projectId) continue;
      const picture: Picture = { status: row.status, from: row.from, to: row.to, subject: null, html: null, text: null, createdAt: new Date(8.64e15), lastEventAt: null };
      let untimed = false;
      for (const e of g.events) {
        recipients.push(...apply(picture, e, g, null));
        if (!e.occurredAt) untimed = true;
      }
      const ts = (d: Date | null) => (d && d.getTime() < 8.64e15 ? d.toISOString() : null);
      updates.push(
        sql`(${g.messageId}::text, ${g.projectId}::text, ${picture.status}::text, ${picture.from}::text, ${JSON.stringify(picture.to)}::jsonb,
             ${picture.subject}::text, ${picture.html}::text, ${picture.text}::text, ${ts(picture.createdAt)}::timestamptz,
             ${ts(picture.lastEventAt)}::timestamptz, ${untimed}::boolean)`,
      );
    }
    for (let i = 0; i < updates.length; i += 500) {
      await tx.execute(sql`
        update indexed_messages as m set
          status = v.status,
          from_address = v.from_address,
          to_addresses = v.to_addresses,
          subject = coalesce(m.subject, v.subject),
          html = coalesce(m.html, v.html),
          text = coalesce(m.text, v.text),
          created_at = least(m.created_at, v.first_at),
          last_event_at = greatest(m.last_event_at, v.last_at, case when v.untimed then now() end),
          updated_at = now()
        from (values ${sql.join(updates.slice(i, i + 500), sql`, `)})
          as v(id, project_id, status, from_address, to_addresses, subject, html, text, first_at, last_at, untimed)
        where m.id = v.id and m.project_id = v.project_id`);
    }
  }

  // Addresses are indexed once; a row that had none yet gets the payload's.
  for (let i = 0; i < recipients.length; i += 5000) {
    await tx.insert(indexedRecipients).values(recipients.slice(i, i + 5000)).onConflictDoNothing();
  }
  const kept = candidates.filter((c) => !c.erased).map((c) => c.g);
  await enqueueEventRereads(tx, kept.map((g) => ({ projectId: g.projectId, messageId: g.messageId })), rereadInMs);
  const byProject = new Map<string, string[]>();
  for (const g of kept) byProject.set(g.projectId, [...(byProject.get(g.projectId) ?? []), g.messageId]);
  for (const [projectId, ids] of byProject) await markInsightDirty(tx, projectId, ids);
  return fresh;
}

/**
 * Messages new to the index that an erasure removed (lib/server/retention/erase.ts): the
 * service still announces them, the index does not take them back. Their row and the events
 * just recorded for them are deleted again, and those events count as not new. Only messages
 * new to the index are looked up, which an erased one always is, so other events pay nothing.
 */
async function dropErased(
  tx: Db,
  events: StreamEvent[],
  fresh: boolean[],
  candidates: { g: { projectId: string; messageId: string }; erased: boolean }[],
  inserted: Set<string>,
): Promise<void> {
  if (inserted.size === 0) return;
  const created = candidates.filter((c) => inserted.has(`${c.g.projectId}\u0000${c.g.messageId}`)).map((c) => c.g);
  const erased = await deletedByErasure(tx, created);
  if (erased.size === 0) return;
  for (const c of candidates) {
    const k = `${c.g.projectId}\u0000${c.g.messageId}`;
    if (!erased.has(k)) continue;
    c.erased = true;
    await tx.execute(sql`delete from indexed_events where project_id = ${c.g.projectId} and message_id = ${c.g.messageId}`);
    await tx.execute(sql`delete from indexed_messages where id = ${c.g.messageId} and project_id = ${c.g.projectId}`);
  }
  events.forEach((s, i) => {
    if (fresh[i] && erased.has(`${s.projectId}\u0000${s.event.messageId}`)) fresh[i] = false;
  });
}

/** The event rows, in arrival order (their `seq` is the order the stream delivered them). True per event when new. */
async function insertEvents(tx: Db, events: StreamEvent[], now: Date): Promise<boolean[]> {
  const firstOf = new Map<string, number>();
  events.forEach((s, i) => {
    const k = `${s.projectId}\u0000${s.key}`;
    if (!firstOf.has(k)) firstOf.set(k, i);
  });
  const unique = [...firstOf.values()];
  const taken = new Set<string>();
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = unique.slice(i, i + 1000).map((n) => {
      const { projectId, key, event: e } = events[n]!;
      return { messageId: e.messageId, projectId, type: e.type, occurredAt: e.occurredAt ?? now, data: e.details, webhookId: key, origin: "stream" as const };
    });
    const inserted = await tx
      .insert(indexedEvents)
      .values(rows)
      .onConflictDoNothing({ target: [indexedEvents.projectId, indexedEvents.webhookId] })
      .returning({ projectId: indexedEvents.projectId, webhookId: indexedEvents.webhookId });
    for (const r of inserted) taken.add(`${r.projectId}\u0000${r.webhookId}`);
  }
  return events.map((s, i) => {
    const k = `${s.projectId}\u0000${s.key}`;
    return firstOf.get(k) === i && taken.has(k);
  });
}

/**
 * One more event onto a message's picture, by the rules of an update: the status folded,
 * sender and recipients only where still empty (and then indexed), the subject and bodies
 * only where still unknown, the earliest timed event as its creation, the latest event as its
 * last change (`now` standing in for an event without a time, when given). Returns the
 * address rows the step adds.
 */
function apply(p: Picture, e: DeliveredEvent, g: { projectId: string; messageId: string }, now: Date | null): RecipientRow[] {
  const fillsAddresses = Boolean((e.to && p.to.length === 0) || (e.from && p.from === ""));
  const rows = fillsAddresses ? recipientRows({ id: g.messageId, projectId: g.projectId, from: e.from ?? "", to: e.to ?? [], createdAt: e.occurredAt ?? now ?? new Date() }) : [];
  p.status = foldStatus(p.status, e.type);
  if (e.from && p.from === "") p.from = e.from;
  if (e.to && p.to.length === 0) p.to = e.to;
  p.subject ??= e.subject;
  p.html ??= e.html;
  p.text ??= e.text;
  if (e.occurredAt) {
    if (e.occurredAt < p.createdAt) p.createdAt = e.occurredAt;
    if (!p.lastEventAt || e.occurredAt > p.lastEventAt) p.lastEventAt = e.occurredAt;
  } else if (now && (!p.lastEventAt || now > p.lastEventAt)) {
    p.lastEventAt = now;
  }
  return rows;
}
