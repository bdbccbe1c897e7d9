import { isSettled } from "@/lib/messages/vocabulary";

type Timed = { status: string; createdAt: string; events: { createdAt?: string }[] };

/**
 * Whether a message still moves, without a closed list of final statuses: a status the
 * vocabulary knows to be final settles at once; any other (an unfamiliar word, or `sent`
 * waiting for news) once nothing has changed for SETTLE_QUIET_MS. "Changed" is the newest
 * time the message carries — its newest event, else its creation; with no time at all it is
 * never taken as settled by time.
 */
export function settledState(m: Timed, now = Date.now()): { settled: boolean; lastChangedAt: string | null } {
  const times = [...m.events.map((e) => e.createdAt), m.createdAt]
    .map((t) => (t ? Date.parse(t) : NaN))
    .filter((t) => Number.isFinite(t));
  const last = times.length ? Math.max(...times) : null;
  return { settled: isSettled(m.status, last, now), lastChangedAt: last === null ? null : new Date(last).toISOString() };
}
