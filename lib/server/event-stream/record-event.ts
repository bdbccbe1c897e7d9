import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import { canonicalEventType } from "@/lib/messages/vocabulary";
import { db, type Db } from "@/lib/server/db";
import { textArray } from "@/lib/server/db/arrays";
import type { indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { foldStatus } from "@/lib/server/messages/fold";
import { replaceInboundPlaceholder } from "@/lib/server/messages/inbound-placeholder";
import { recipientRows } from "@/lib/server/messages/recipients";
import { insertRecipientRows } from "@/lib/server/messages/record";
import { enqueueEventRereads } from "@/lib/server/rereads/queue";
import { redactorsFor, type Redactor } from "@/lib/server/retention/redactor";
import { erasedWholeSql } from "@/lib/server/retention/tombstones";
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
 * What an erasure took out of a project is first taken out of its events
 * (lib/server/retention/redactor.ts). True per event when it was new.
 */
export async function recordEventsIn(tx: Db, delivered: StreamEvent[], rereadInMs: number): Promise<boolean[]> {
  const now = new Date();
  const events = await redacted(tx, delivered);
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
        recipients.push(...apply(picture, e, g, null));
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

/** The events as the index may hold them after their projects' erasures (the same array when no project erased anything). */
async function redacted(tx: Db, events: StreamEvent[]): Promise<StreamEvent[]> {
  const redactors = await redactorsFor(tx, events.map((s) => s.projectId));
  if (![...redactors.values()].some((r) => r.active)) return events;
  return events.map((s) => {
    const r = redactors.get(s.projectId)!;
    return r.active ? { ...s, event: redactedEvent(s.event, r) } : s;
  });
}

function redactedEvent(e: DeliveredEvent, r: Redactor): DeliveredEvent {
  return {
    ...e,
    from: e.from === null ? null : r.one(e.from),
    to: e.to === null ? null : r.list(e.to),
    subject: r.maybe(e.subject),
    text: r.maybe(e.text),
    html: r.maybe(e.html),
    details: r.json(e.details),
  };
}

/*
 * The statements below carry their rows as one JSON document: the statement's text is the
 * same whatever the batch's size, so the server prepares it once per connection (a VALUES
 * list of n rows is a new statement for every n, and each new one costs a round trip to
 * prepare), and building it costs no per-row SQL.
 */

/** Inserts the messages the index does not have; the ones created, as `project\u0000id`, with whether an erasure removed them. */
async function insertMessages(tx: Db, candidates: { g: { projectId: string; messageId: string }; direction: string; picture: Picture }[]): Promise<Map<string, boolean>> {
  const created = new Map<string, boolean>();
  for (let i = 0; i < candidates.length; i += 1000) {
    const doc = candidates.slice(i, i + 1000).map(({ g, direction, picture: p }) => ({
      id: g.messageId,
      p: g.projectId,
      dir: direction,
      st: p.status,
      f: p.from,
      to: p.to,
      s: p.subject,
      h: p.html,
      tx: p.text,
      c: p.createdAt.toISOString(),
      l: p.lastEventAt?.toISOString() ?? null,
    }));
    const rows = rowsOf<{ id: string; project_id: string; erased: boolean }>(
      await tx.execute(sql`
        with created as (
          insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, subject, html, text, source, created_at, last_event_at)
          select x.id, x.p, x.dir, x.st, x.f, x.to, x.s, x.h, x.tx, 'webhook', x.c::timestamptz, x.l::timestamptz
            from jsonb_to_recordset(${JSON.stringify(doc)}::jsonb)
              as x(id text, p text, dir text, st text, f text, "to" jsonb, s text, h text, tx text, c text, l text)
          on conflict (id) do nothing
          returning id, project_id)
        select c.id, c.project_id, ${erasedWholeSql(sql`c.project_id`, sql`c.id`)} as erased from created c`),
    );
    for (const r of rows) created.set(`${r.project_id}\u0000${r.id}`, r.erased);
  }
  return created;
}

/** The messages' rows, locked in id order (so two transactions never wait on each other in a circle). */
async function lockMessages(tx: Db, ids: string[]): Promise<Map<string, { projectId: string; status: string; from: string; to: string[] }>> {
  const current = new Map<string, { projectId: string; status: string; from: string; to: string[] }>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = rowsOf<{ id: string; project_id: string; status: string; from_address: string; to_addresses: string[] | string }>(
      await tx.execute(sql`
        select id, project_id, status, from_address, to_addresses from indexed_messages
         where id = any(${textArray(ids.slice(i, i + 1000))}::text[])
         order by id for update`),
    );
    for (const r of rows) {
      const to = typeof r.to_addresses === "string" ? (JSON.parse(r.to_addresses) as string[]) : r.to_addresses;
      current.set(r.id, { projectId: r.project_id, status: r.status, from: r.from_address, to });
    }
  }
  return current;
}

/** A message's row after its events, as updateMessages writes it. */
type MessageUpdate = { id: string; p: string; st: string; f: string; to: string[]; s: string | null; h: string | null; tx: string | null; c: string | null; l: string | null; u: boolean };

/** The rows are reached through the primary key by their ids as an array (./arrays.ts), then joined to their new values. */
async function updateMessages(tx: Db, updates: MessageUpdate[]): Promise<void> {
  for (let i = 0; i < updates.length; i += 1000) {
    const slice = updates.slice(i, i + 1000);
    await tx.execute(sql`
      update indexed_messages as m set
        status = v.st,
        from_address = v.f,
        to_addresses = v.to,
        subject = coalesce(m.subject, v.s),
        html = coalesce(m.html, v.h),
        text = coalesce(m.text, v.tx),
        created_at = least(m.created_at, v.c::timestamptz),
        last_event_at = greatest(m.last_event_at, v.l::timestamptz, case when v.u then now() end),
        updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(slice)}::jsonb)
        as v(id text, p text, st text, f text, "to" jsonb, s text, h text, tx text, c text, l text, u boolean)
      where m.id = any(${textArray(slice.map((u) => u.id))}::text[]) and m.id = v.id and m.project_id = v.p`);
  }
}

/**
 * Messages new to the index that an erasure removed (lib/server/retention/erase.ts): the
 * service still announces them, the index does not take them back. Their row and the events
 * just recorded for them are deleted again, and those events count as not new. Only messages
 * new to the index are asked about (in the statement that creates them), which an erased one
 * always is, so other events pay nothing.
 */
async function dropErased(
  tx: Db,
  events: StreamEvent[],
  fresh: boolean[],
  candidates: { g: { projectId: string; messageId: string }; erased: boolean }[],
  created: Map<string, boolean>,
): Promise<void> {
  let any = false;
  for (const c of candidates) {
    if (!created.get(`${c.g.projectId}\u0000${c.g.messageId}`)) continue;
    c.erased = any = true;
    await tx.execute(sql`delete from indexed_events where project_id = ${c.g.projectId} and message_id = ${c.g.messageId}`);
    await tx.execute(sql`delete from indexed_messages where id = ${c.g.messageId} and project_id = ${c.g.projectId}`);
  }
  if (!any) return;
  events.forEach((s, i) => {
    if (fresh[i] && created.get(`${s.projectId}\u0000${s.event.messageId}`)) fresh[i] = false;
  });
}

/**
 * The event rows, in arrival order (their `seq` is the order the stream delivered them: an
 * insert from a set-returning function takes its rows in the function's order). True per
 * event when new.
 */
async function insertEvents(tx: Db, events: StreamEvent[], now: Date): Promise<boolean[]> {
  const firstOf = new Map<string, number>();
  events.forEach((s, i) => {
    const k = `${s.projectId}\u0000${s.key}`;
    if (!firstOf.has(k)) firstOf.set(k, i);
  });
  const unique = [...firstOf.values()];
  const taken = new Set<string>();
  for (let i = 0; i < unique.length; i += 1000) {
    const doc = unique.slice(i, i + 1000).map((n) => {
      const { projectId, key, event: e } = events[n]!;
      return { m: e.messageId, p: projectId, t: e.type, at: (e.occurredAt ?? now).toISOString(), d: e.details ?? {}, k: key };
    });
    const rows = rowsOf<{ project_id: string; webhook_id: string }>(
      await tx.execute(sql`
        insert into indexed_events (message_id, project_id, type, occurred_at, data, webhook_id, origin)
        select x.m, x.p, x.t, x.at::timestamptz, x.d, x.k, 'stream'
          from jsonb_to_recordset(${JSON.stringify(doc)}::jsonb) as x(m text, p text, t text, at text, d jsonb, k text)
        on conflict (project_id, webhook_id) do nothing
        returning project_id, webhook_id`),
    );
    for (const r of rows) taken.add(`${r.project_id}\u0000${r.webhook_id}`);
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
