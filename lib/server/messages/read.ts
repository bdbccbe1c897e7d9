import "server-only";
import { sql } from "drizzle-orm";
import type { Message } from "@/lib/schemas/emails";
import type { Project } from "@/lib/server/access";
import { afterResponse } from "@/lib/server/after-response";
import { db } from "@/lib/server/db";
import { rowsOf } from "@/lib/server/db/rows";
import { service } from "@/lib/server/service";
import { indexServiceMessage } from "./lookup";

/**
 * Reading one message, the way support reads it: many times, mostly after it settled.
 *
 * The service is the truth, but asking it on every read costs a round trip the dashboard can
 * usually skip: every change to a message reaches the dashboard as a signed event (the event
 * stream, lib/server/event-stream), and each event is a new row in `indexed_events`. So a
 * message read from the service is kept with the newest event sequence the index held *before*
 * the read; it is served again while that number is unchanged. An event arriving in between
 * makes the number move and the next read ask the service. The number lives in the shared
 * database, so several dashboard instances stay correct with caches of their own.
 *
 * Without an event stream nothing would move the number, so projects without one always ask
 * the service. `MAX_AGE_MS` bounds what a delayed or lost delivery can leave stale, and
 * `fresh` (a `Cache-Control: no-cache` request) skips the cache for one read.
 */
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 500;

type Entry = { message: Message; eventSeq: number; cachedAt: number };
const cache = new Map<string, Entry>();

type IndexState = { streaming: boolean; eventSeq: number };

/** One query: whether events flow for the project, and the message's newest event. */
async function indexState(projectId: string, id: string): Promise<IndexState> {
  const [row] = rowsOf(
    await (await db()).execute(sql`
      select
        exists (select 1 from event_streams where project_id = ${projectId}) as streaming,
        (select max(seq) from indexed_events where message_id = ${id} and project_id = ${projectId}) as event_seq`),
  );
  return { streaming: Boolean(row?.streaming), eventSeq: Number(row?.event_seq ?? 0) };
}

export async function readMessage(project: Project, id: string, opts: { fresh?: boolean } = {}): Promise<Message> {
  const key = `${project.id}\u0000${id}`;
  const state = await indexState(project.id, id);
  const hit = cache.get(key);
  if (state.streaming && !opts.fresh && hit && hit.eventSeq === state.eventSeq && Date.now() - hit.cachedAt < MAX_AGE_MS) {
    // Touch: the Map's order is the eviction order.
    cache.delete(key);
    cache.set(key, hit);
    return hit.message;
  }
  const message = await service.emails.get(project.externalId, id);
  if (state.streaming) remember(key, { message, eventSeq: state.eventSeq, cachedAt: Date.now() });
  else cache.delete(key);
  // A message the index did not know is added, a known one refreshed (issue 4: looked-up
  // messages become searchable) — after the answer is sent, not before.
  afterResponse(`index: could not record ${id}`, () => indexServiceMessage(project.id, message));
  return message;
}

function remember(key: string, entry: Entry): void {
  cache.delete(key);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
}

/** Tests: start from an empty cache. */
export function clearMessageCache(): void {
  cache.clear();
}
