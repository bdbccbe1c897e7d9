import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dueInOf } from "@/contract/db/due-gate";
import type { Db } from "@/lib/server/db";

/**
 * The re-read queue (table `message_rereads`): which messages to read again from the service,
 * and when. One row per message, so any number of events for it before the read starts cost
 * one read; an event that arrives while the read is under way moves `generation`, and the
 * finished read then leaves the row for one more read instead of removing it.
 */
export type Reread = { projectId: string; messageId: string; generation: number; attempts: number; reason: string };
export type RereadReason = "event" | "reconcile" | "simulate" | "reply";

const ms = (n: number) => sql`(${String(Math.max(0, Math.round(n)))}::int * interval '1 millisecond')`;

/** Asks for a read of one message `delayMs` from now (inside the caller's transaction, e.g. the ingest's). */
export async function enqueueReread(tx: Db, projectId: string, messageId: string, reason: RereadReason, delayMs: number): Promise<void> {
  await upsertRereads(tx, [{ projectId, messageId }], reason, delayMs);
}

/** The same for the messages of a batch of stream events (the ingest's group commit): one statement per 1,000. */
export async function enqueueEventRereads(tx: Db, messages: { projectId: string; messageId: string }[], delayMs: number): Promise<void> {
  // One row per message: a statement may not update a row twice.
  const unique = [...new Map(messages.map((m) => [`${m.projectId}\u0000${m.messageId}`, m])).values()];
  for (let i = 0; i < unique.length; i += 1000) await upsertRereads(tx, unique.slice(i, i + 1000), "event", delayMs);
}

/**
 * The messages travel as one JSON document (like the ingest's other statements,
 * lib/server/message-index/record-event.ts): a VALUES list of four parameters per message was
 * a new statement for every count, and about 1.5 ms more of PGlite's time per ingest
 * transaction of a hundred messages.
 */
async function upsertRereads(tx: Db, messages: { projectId: string; messageId: string }[], reason: RereadReason, delayMs: number): Promise<void> {
  if (messages.length === 0) return;
  const doc = JSON.stringify(messages.map((m) => ({ p: m.projectId, m: m.messageId })));
  await tx.execute(sql`
    insert into message_rereads as q (project_id, message_id, reason, due_at)
    select x.p, x.m, ${reason}, now() + ${ms(delayMs)} from jsonb_to_recordset(${doc}::jsonb) as x(p text, m text)
    on conflict (project_id, message_id) do update set
      generation = q.generation + case when q.claimed_by is not null then 1 else 0 end,
      due_at = case when q.claimed_by is null then least(q.due_at, excluded.due_at) else q.due_at end
    where q.claimed_by is not null or q.due_at > excluded.due_at`);
}

/** The reconciler's batch: messages already waiting keep their place. */
export async function enqueueRereads(d: Db, projectId: string, messageIds: string[], reason: RereadReason): Promise<number> {
  if (messageIds.length === 0) return 0;
  const result = await d.execute(sql`
    insert into message_rereads (project_id, message_id, reason, due_at)
    select ${projectId}, value, ${reason}, now() from jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb)
    on conflict (project_id, message_id) do nothing
    returning message_id`);
  return rowsOf(result).length;
}

/** Claims up to `limit` due reads of one project for `instance`, under a lease. */
export async function claimRereads(d: Db, projectId: string, limit: number, instance: string, leaseMs: number): Promise<Reread[]> {
  if (limit <= 0) return [];
  const result = await d.execute(sql`
    update message_rereads q set claimed_by = ${instance}, lease_until = now() + ${ms(leaseMs)}
     where (q.project_id, q.message_id) in (
       select project_id, message_id from message_rereads
        where project_id = ${projectId} and due_at <= now() and (claimed_by is null or lease_until < now())
        order by due_at
        limit ${limit}
        for update skip locked)
    returning q.project_id, q.message_id, q.generation, q.attempts, q.reason`);
  return rowsOf(result).map((r) => ({
    projectId: String(r.project_id),
    messageId: String(r.message_id),
    generation: Number(r.generation),
    attempts: Number(r.attempts),
    reason: String(r.reason),
  }));
}

/** A read done: the row goes, unless an event arrived meanwhile; then it waits `againInMs` for one more read. */
export async function finishReread(d: Db, r: Reread, instance: string, againInMs: number): Promise<void> {
  const removed = rowsOf(
    await d.execute(sql`
      delete from message_rereads
       where project_id = ${r.projectId} and message_id = ${r.messageId} and claimed_by = ${instance} and generation = ${r.generation}
      returning message_id`),
  );
  if (removed.length) return;
  await d.execute(sql`
    update message_rereads set claimed_by = null, lease_until = null, attempts = 0, last_error = null, due_at = now() + ${ms(againInMs)}
     where project_id = ${r.projectId} and message_id = ${r.messageId} and claimed_by = ${instance}`);
}

/** A read that did not happen: tried again in `retryInMs`; `failed` counts it as an attempt. */
export async function releaseReread(d: Db, r: Reread, instance: string, retryInMs: number, error: string, failed: boolean): Promise<void> {
  await d.execute(sql`
    update message_rereads
       set claimed_by = null, lease_until = null, due_at = now() + ${ms(retryInMs)}, last_error = ${error},
           attempts = attempts + ${failed ? 1 : 0}
     where project_id = ${r.projectId} and message_id = ${r.messageId} and claimed_by = ${instance}`);
}

/** Given up: the row goes, and the reconciler leaves the message alone for `quietMs`. */
export async function dropReread(d: Db, r: Reread, instance: string, quietMs: number): Promise<void> {
  await d.execute(sql`
    delete from message_rereads where project_id = ${r.projectId} and message_id = ${r.messageId} and claimed_by = ${instance}`);
  // checked_at in the future: "do not ask again before then".
  await d.execute(sql`
    update indexed_messages set checked_at = now() + ${ms(quietMs)} where project_id = ${r.projectId} and id = ${r.messageId}`);
}

/** A 429: no reads for the project until Retry-After, or a back-off that doubles per 429 in a row (2 s … 60 s). */
export async function pauseProject(d: Db, projectId: string, retryAfterMs: number | null): Promise<void> {
  const wait = retryAfterMs === null ? sql`least(60000, 1000 * power(2, coalesce(p.strikes, 0) + 1))` : sql`${String(Math.round(retryAfterMs))}::int`;
  await d.execute(sql`
    insert into reread_pauses as p (project_id, until, strikes)
    values (${projectId}, now() + ${retryAfterMs === null ? ms(2000) : ms(retryAfterMs)}, 1)
    on conflict (project_id) do update set
      strikes = p.strikes + 1,
      until = greatest(p.until, now() + (${wait} * interval '1 millisecond'))`);
}

export async function clearPause(d: Db, projectId: string): Promise<void> {
  await d.execute(sql`delete from reread_pauses where project_id = ${projectId}`);
}

/** Every project with a pause row, and until when (past times: paused before, not now; the row goes at the next good read). */
export async function pauses(d: Db): Promise<Map<string, Date>> {
  const rows = rowsOf(await d.execute(sql`select project_id, until from reread_pauses`));
  return new Map(rows.map((r) => [String(r.project_id), r.until instanceof Date ? r.until : new Date(String(r.until))]));
}

/**
 * How long until a read is due that some instance could take (ms; null when no read
 * waits): anyDue's condition as a time, for the worker's due gate. A claimed read counts from
 * the end of its lease, a paused project's from the end of its pause.
 */
export async function nextRereadDue(d: Db): Promise<number | null> {
  return dueInOf(
    rowsOf(
      await d.execute(sql`
        select (extract(epoch from min(greatest(
                 r.due_at,
                 case when r.claimed_by is not null then r.lease_until end,
                 (select p.until from reread_pauses p where p.project_id = r.project_id))) - now()) * 1000)::float8 as in_ms
          from message_rereads r`),
    ),
  );
}

/** Whether a read is due now that some instance could take (its project not paused). */
export async function anyDue(d: Db): Promise<boolean> {
  const rows = rowsOf(
    await d.execute(sql`
      select 1 from message_rereads r
       where r.due_at <= now() and (r.claimed_by is null or r.lease_until < now())
         and not exists (select 1 from reread_pauses p where p.project_id = r.project_id and p.until > now())
       limit 1`),
  );
  return rows.length > 0;
}
