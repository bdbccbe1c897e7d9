import "server-only";
import { isAppError } from "@/lib/errors";

/**
 * Deliveries the ingest refused before their body was read through — too large (413), too slow
 * (408), over the in-flight budget (429) — for the delivery log (./delivery-log.ts). These are
 * what a flood produces, so a note costs a map lookup and an increment, nothing more: refusals
 * of one project for one limit in one second are one note with a count, the first one's
 * `webhook-id` and reason (naming the limit) shown. At most MAX_SLOTS notes wait between two flushes (a few
 * seconds); more are dropped, so a flood of any size and of any number of project names makes
 * at most MAX_SLOTS rows per flush, and each project's rows stay capped as always.
 *
 * The project is kept by its name: a delivery refused for its declared size is refused before
 * the project is looked up. The flush resolves the names (one statement) and drops those that
 * name no project, so a stranger's made-up name is never written. `known` keeps names the
 * stream cache has never seen out of the slots (a stranger's names cannot crowd them).
 */
export const MAX_SLOTS = 200;
export const COALESCE_MS = 1_000;

/** The statuses of a delivery refused unread or partly read. */
const UNREAD = new Set([408, 413, 429]);

export type Refusal = { project: string; status: number; webhookId: string | null; reason: string; receivedAt: Date; count: number };
type State = { slots: Map<string, Refusal>; dropped: number };

// On globalThis: the ingest notes, the background flush (instrumentation) takes.
const KEY = Symbol.for("mail-dashboard.delivery-log.refusals");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { slots: new Map(), dropped: 0 });
}

/**
 * Notes `error` when it is a refusal before the body was read (synchronous, no I/O) and says
 * whether it was one; anything else is ignored.
 */
export function noteUnreadRefusal(project: string, webhookId: string | null, error: unknown, now = Date.now()): boolean {
  if (!isAppError(error) || !UNREAD.has(error.status)) return false;
  const s = state();
  // The message names the limit (our own words, a handful of them): one note per limit.
  const key = `${Math.floor(now / COALESCE_MS)}\u0000${error.message}\u0000${project}`;
  const slot = s.slots.get(key);
  if (slot) slot.count++;
  else if (s.slots.size >= MAX_SLOTS) s.dropped++;
  else s.slots.set(key, { project, status: error.status, webhookId, reason: error.message, receivedAt: new Date(now), count: 1 });
  return true;
}

/** What waits, taken (the next notes start afresh). */
export function takeUnreadRefusals(): Refusal[] {
  const s = state();
  if (s.slots.size === 0) return [];
  const taken = [...s.slots.values()];
  s.slots = new Map();
  return taken;
}

/** The note's reason: the limit the first one hit, and how many more were refused alike. */
export function refusalReason(r: Refusal): string {
  return r.count === 1 ? r.reason : `${r.reason} (${r.count} deliveries refused this way within ${COALESCE_MS / 1000} s; the first shown)`;
}

/** Tests: forget what waits. */
export function resetUnreadRefusals(): void {
  const s = state();
  s.slots = new Map();
  s.dropped = 0;
}
