import "server-only";
import { isDeepStrictEqual } from "node:util";
import { sql } from "drizzle-orm";
import type { Message } from "@/lib/schemas/emails";
import type { Project } from "@/lib/server/gate/access";
import { afterResponse } from "@/lib/server/http/after-response";
import { db, dbKind, type Db } from "@/lib/server/db";
import { writeEpoch } from "@/contract/db/write-epoch";
import { env } from "@/lib/server/env";
import { service } from "@/lib/server/service";
import { canonicalStatus } from "@/lib/messages/vocabulary";
import { indexServiceMessage } from "./lookup";

/**
 * Reading one message, the way support reads it: many times, mostly after it settled.
 *
 * The service is the truth, but asking it on every read costs a round trip the dashboard can
 * usually skip: every change to a message reaches the dashboard as a signed event (the event
 * stream, lib/server/event-stream), so a message read from the service stays good until an
 * event for it arrives. Two ways of noticing that event, by deployment:
 *
 * - One dashboard process (PGlite, the default: its data directory admits one process): the
 *   ingest of an event drops the message from this cache (`invalidateMessage`) — at once, and
 *   a cache hit costs no query at all.
 * - Several instances on one Postgres database (`DATABASE_URL`): an event may reach another
 *   instance, so each entry keeps the newest `indexed_events.seq` of the stream's events the
 *   shared index held *before* the service was read, and a hit is served only while that
 *   number is unchanged — and while the index's status is the one the entry holds, since
 *   another instance's re-read (lib/server/message-index/reread-worker.ts) may have found a change no event announced.
 *
 * Projects without an event stream are never cached: nothing would say when the message
 * changed. `MAX_AGE_MS` bounds what a delayed or lost delivery can leave stale, and `fresh`
 * (a `Cache-Control: no-cache` request) skips the cache for one read.
 */
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 500;

/** `indexStatus`: the index's status before the read (the read then writes the message's own). */
type Entry = { message: Message; eventSeq: number; indexStatus: string | null; cachedAt: number };

/** Shared database: the index's status is one this entry accounts for, so no re-read elsewhere changed it. */
const statusAccountedFor = (status: string | null, hit: Entry) =>
  status === null || status === hit.indexStatus || status === canonicalStatus(hit.message.status);
/**
 * `epoch` moves on every invalidation: a read that began before one must not cache what it got.
 * `indexed`: the answer this process last wrote into the index for a message, with the stream's
 * newest event for it at that time — so a read that brings back the same answer, while the index
 * still shows what was written, writes nothing (a write costs far more than the read it follows).
 */
type Cache = {
  entries: Map<string, Entry>;
  epoch: number;
  indexed: Map<string, { message: Message; eventSeq: number }>;
  /** The index's state per message as last read, with the database's write epoch then (indexState). */
  states: Map<string, { state: IndexState; writeEpoch: number }>;
};

// On globalThis: Next bundles the ingest route and the message routes separately, and the
// ingest's invalidation must reach the same cache the reads use.
const CACHE = Symbol.for("mail-dashboard.message-read-cache");
function cache(): Cache {
  const holder = globalThis as { [CACHE]?: Cache };
  return (holder[CACHE] ??= { entries: new Map(), epoch: 0, indexed: new Map(), states: new Map() });
}

const keyOf = (projectId: string, id: string) => `${projectId}\u0000${id}`;

/** Called by the ingest for every new event: the next read of the message asks the service. */
export function invalidateMessage(projectId: string, id: string): void {
  const c = cache();
  c.entries.delete(keyOf(projectId, id));
  c.indexed.delete(keyOf(projectId, id));
  c.states.delete(keyOf(projectId, id));
  c.epoch++;
}

/** Tests: start from an empty cache. */
export function clearMessageCache(): void {
  cache().entries.clear();
  cache().indexed.clear();
  cache().states.clear();
}

export type IndexState = { streaming: boolean; eventSeq: number; status: string | null };

/** One query, prepared once per database handle: whether events flow for the project, and the message's newest event. */
const preparedStateQueries = new WeakMap<Db, ReturnType<typeof prepareStateQuery>>();

function prepareStateQuery(d: Db) {
  const projectId = sql.placeholder("projectId");
  const id = sql.placeholder("id");
  return d
    .select({
      streaming: sql<boolean>`exists (select 1 from event_streams where project_id = ${projectId})`,
      // The stream's events only: a read's own events, indexed after it, must not void its entry.
      eventSeq: sql<string | number | null>`(select max(seq) from indexed_events where message_id = ${id} and project_id = ${projectId} and origin = 'stream')`,
      status: sql<string | null>`(select status from indexed_messages where id = ${id} and project_id = ${projectId})`,
    })
    .from(sql`(select 1) as one`)
    .prepare("message_read_state");
}

/**
 * The index's state of one message. With one process on PGlite (`kept`), a state read is kept
 * until the next write to the database, whoever made it (contract/db/write-epoch.ts counts every
 * write reaching the engine, and PGlite admits one process): a repeated read of a settled
 * message then asks the database nothing, as the guard keeps its session row. The query is six
 * exchanges with the engine: a no-cache read and its after-response work cost 2.95 ms of CPU
 * with it and 0.80 ms without (one process, 150 reads in each of 6 interleaved rounds).
 */
async function indexState(projectId: string, id: string, kept = false): Promise<IndexState> {
  const d = await db();
  const keep = kept && (await dbKind()) === "pglite";
  const states = cache().states;
  const key = keyOf(projectId, id);
  const epoch = writeEpoch();
  if (keep) {
    const last = states.get(key);
    if (last && last.writeEpoch === epoch) return last.state;
  }
  let q = preparedStateQueries.get(d);
  if (!q) preparedStateQueries.set(d, (q = prepareStateQuery(d)));
  const [row] = await q.execute({ projectId, id });
  const state = { streaming: Boolean(row?.streaming), eventSeq: Number(row?.eventSeq ?? 0), status: row?.status ?? null };
  // Kept only when no write came in while it was read.
  if (keep && writeEpoch() === epoch) {
    states.delete(key);
    if (states.size >= MAX_ENTRIES) states.delete(states.keys().next().value!);
    states.set(key, { state, writeEpoch: epoch });
  }
  return state;
}

/**
 * `fresh` skips the cache; `indexFirst` writes a message read from the service into the index
 * before answering instead of after (for a caller that reads the index next, e.g. its thread).
 */
export async function readMessage(project: Project, id: string, opts: { fresh?: boolean; indexFirst?: boolean } = {}): Promise<Message> {
  const read = await readThroughCache(project, id, opts);
  if (!read.fromService) return read.message;
  const { message } = read;
  // A message the index did not know is added, a known one refreshed (issue 4: looked-up
  // messages become searchable) — after the answer is sent, unless the caller needs it now.
  // Not when this process wrote this very answer and the index shows no change since (same
  // status, no newer event from the stream; the row gone would show as no status): the write
  // would change nothing, and on PGlite it holds the one database, and the process, for
  // longer than the read took. Only where this process is the index's one writer: on a shared
  // Postgres another dashboard may have written an older answer since.
  const indexed = cache().indexed;
  const key = keyOf(project.id, id);
  const record = async () => {
    const state = await read.state();
    const last = indexed.get(key);
    if (last && !env().DATABASE_URL && state.status === canonicalStatus(last.message.status) && state.eventSeq === last.eventSeq && isDeepStrictEqual(last.message, message)) return;
    await indexServiceMessage(project.id, message);
    indexed.delete(key);
    if (indexed.size >= MAX_ENTRIES) indexed.delete(indexed.keys().next().value!);
    indexed.set(key, { message, eventSeq: state.eventSeq });
  };
  if (opts.indexFirst) await record();
  else afterResponse(`index: could not record ${id}`, record);
  return message;
}

/**
 * The message from the cache or the service, written nowhere: `fromService` says the service
 * was asked, so the caller decides what goes into the index. `state` is the index's state when
 * the caller has already read it (the message screen reads it with the message's thread).
 *
 * Read from the service, the answer comes with `state()`: the index's state, for the caller's
 * write. With one dashboard process and no state given, the index is read only when `state()`
 * is called — readMessage calls it after the response is sent — and the answer is cached
 * then: on PGlite that query costs the read about as much as the service's round trip
 * (`npm run bench:gateway`, no-cache), and nothing in the answer depends on it. A caller
 * that never calls `state()` leaves the answer uncached.
 */
export async function readThroughCache(
  project: Project,
  id: string,
  opts: { fresh?: boolean; state?: IndexState } = {},
): Promise<{ message: Message; fromService: true; state: () => Promise<IndexState> } | { message: Message; fromService: false }> {
  const c = cache();
  const key = keyOf(project.id, id);
  const shared = Boolean(env().DATABASE_URL);
  let state: IndexState | null = opts.state ?? null;

  const hit = opts.fresh ? undefined : c.entries.get(key);
  if (hit && Date.now() - hit.cachedAt < MAX_AGE_MS) {
    if (shared) state ??= await indexState(project.id, id);
    if (!shared || (state!.streaming && state!.eventSeq === hit.eventSeq && statusAccountedFor(state!.status, hit))) {
      // Touch: the Map's order is the eviction order.
      c.entries.delete(key);
      c.entries.set(key, hit);
      return { message: hit.message, fromService: false };
    }
  }

  const epoch = c.epoch;
  /** Caches the answer unless an event arrived since the read began (the epoch moved) or the project has no stream. */
  const settle = (message: Message, known: IndexState): IndexState => {
    if (known.streaming && c.epoch === epoch) remember(c, key, { message, eventSeq: known.eventSeq, indexStatus: known.status, cachedAt: Date.now() });
    else c.entries.delete(key);
    return known;
  };
  if (state || shared) {
    // Shared: the index's state must be from before the service was asked (an event another
    // instance takes in meanwhile then shows as a newer seq, never as one the entry accounts for).
    state ??= await indexState(project.id, id);
    const message = await service.emails.get(project.externalId, id);
    const known = settle(message, state);
    return { message, fromService: true, state: async () => known };
  }
  // This process alone writes the index, and its events reach the cache as invalidations
  // (the epoch, taken before the service was asked): the state may be read after the answer.
  const message = await service.emails.get(project.externalId, id);
  let later: Promise<IndexState> | undefined;
  return { message, fromService: true, state: () => (later ??= indexState(project.id, id, true).then((known) => settle(message, known))) };
}

function remember(c: Cache, key: string, entry: Entry): void {
  c.entries.delete(key);
  if (c.entries.size >= MAX_ENTRIES) c.entries.delete(c.entries.keys().next().value!);
  c.entries.set(key, entry);
}
