import "server-only";
import { canonicalEventType } from "@/lib/messages/vocabulary";
import { db, type Db } from "@/lib/server/db";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { foldStatus } from "./fold";
import { replaceInboundPlaceholder } from "./inbound-placeholder";
import { recipientRows } from "./recipients";
import { insertRecipientRows } from "./record";
import { enqueueEventRereads } from "./reread-queue";
import { dropErased } from "./drop-erased";
import { applyEvent, type Picture, type RecipientRow } from "./event-picture";
import { redactedEvents } from "./event-redaction";
import { insertEvents } from "./event-rows";
import { insertMessages, lockMessages, updateMessages, type MessageUpdate } from "./message-rows";
import type { DeliveredEvent } from "./payload";
import type { StreamEvent } from "./stream-event";

export type { StreamEvent } from "./stream-event";

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

/**
 * Events in arrival order, with the outcome of recording them one after another — the same
 * rows, the same folded status, the same re-reads — written with a few multi-row statements
 * (the ingest's group commit, lib/server/event-stream/group-commit.ts, hands a batch of concurrent deliveries here):
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
 * What an erasure took out of a project is first taken out of its events
 * (lib/server/redaction/redactor.ts). True per event when it was new.
 */
export async function recordEventsIn(tx: Db, delivered: StreamEvent[], rereadInMs: number): Promise<boolean[]> {
  const now = new Date();
  const events = await redactedEvents(tx, delivered);
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
    for (const e of rest) rows.push(...applyEvent(picture, e, g, now));
    return { g, direction, picture, rows, erased: false };
  });
  const created = await insertMessages(tx, candidates);
  await dropErased(tx, events, fresh, candidates, created);
  const existing: typeof list = [];
  for (const c of candidates) {
    if (c.erased) continue;
    if (!created.has(`${c.g.projectId}\u0000${c.g.messageId}`)) {
      existing.push(c.g);
      continue;
    }
    recipients.push(...c.rows);
    const first = c.g.events[0]!;
    if (c.direction === "inbound") await replaceInboundPlaceholder(tx, c.g.projectId, { id: c.g.messageId, from: first.from, subject: first.subject });
  }

  // Messages the index has: locked, then updated event by event.
  const updates: MessageUpdate[] = [];
  if (existing.length) {
    const current = await lockMessages(tx, [...new Set(existing.map((g) => g.messageId))]);
    for (const g of existing) {
      const row = current.get(g.messageId);
      // An id another project holds: the event is kept, the other project's message is not touched.
      if (!row || row.projectId !== g.projectId) continue;
      const picture: Picture = { status: row.status, from: row.from, to: row.to, subject: null, html: null, text: null, createdAt: new Date(8.64e15), lastEventAt: null };
      let untimed = false;
      for (const e of g.events) {
        recipients.push(...applyEvent(picture, e, g, null));
        if (!e.occurredAt) untimed = true;
      }
      const ts = (d: Date | null) => (d && d.getTime() < 8.64e15 ? d.toISOString() : null);
      updates.push({ id: g.messageId, p: g.projectId, st: picture.status, f: picture.from, to: picture.to, s: picture.subject, h: picture.html, tx: picture.text, c: ts(picture.createdAt), l: ts(picture.lastEventAt), u: untimed });
    }
  }

  // The rest needs no answer: sent together, one round trip to the server instead of four
  // (run in this order all the same, so two transactions still take rows in the same order).
  const kept = candidates.filter((c) => !c.erased).map((c) => c.g);
  const byProject = new Map<string, string[]>();
  for (const g of kept) byProject.set(g.projectId, [...(byProject.get(g.projectId) ?? []), g.messageId]);
  await Promise.all([
    updateMessages(tx, updates),
    insertRecipientRows(tx, recipients),
    enqueueEventRereads(tx, kept.map((g) => ({ projectId: g.projectId, messageId: g.messageId })), rereadInMs),
    ...[...byProject].map(([projectId, ids]) => markInsightDirty(tx, projectId, ids)),
  ]);
  return fresh;
}
