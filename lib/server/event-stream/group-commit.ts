import "server-only";
import { env } from "@/lib/server/env";
import { recordEvents, type StreamEvent } from "@/lib/server/message-index/record-event";

/**
 * Group commit for the ingest. Deliveries that arrive while the database is busy recording
 * earlier ones wait, and are then recorded together in one transaction (lib/server/message-index/record-event.ts,
 * the same rows as one at a time), so a burst of deliveries costs a few statements and one
 * commit instead of several statements and a commit each — on PGlite's single connection
 * the difference between hundreds and thousands of events a second.
 *
 * Before each transaction the batch gathers for GATHER_MS. On PGlite a transaction runs
 * without giving the event loop a turn (the engine is synchronous under its promises), so no
 * other request is read while it runs: recorded "at once", every delivery went alone, one
 * transaction each, whatever the load (bench:ingest counted 1.0 events per transaction). The
 * pause lets the requests that arrived meanwhile reach the queue; it costs a delivery at most
 * a few milliseconds of waiting and no CPU.
 *
 * Each delivery still gets its own answer: its events' outcomes are handed back to it alone,
 * and when a batch fails (a delivery whose content the database refuses, a deadlock with
 * another instance) each of its deliveries is recorded again in a transaction of its own, so
 * only the one that fails by itself is answered with an error, and the service retries it.
 */
const MAX_EVENTS = 500;
const GATHER_MS = 2;

type Waiting = { events: StreamEvent[]; resolve: (fresh: boolean[]) => void; reject: (e: unknown) => void };
type State = { queue: Waiting[]; running: boolean };

// On globalThis: one queue per process, whichever bundle the ingest route was compiled into.
const KEY = Symbol.for("mail-dashboard.ingest-group-commit");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { queue: [], running: false });
}

/** Records one delivery's events with whatever else is waiting; true per event when it was new. */
export function recordDelivery(events: StreamEvent[]): Promise<boolean[]> {
  const s = state();
  const done = new Promise<boolean[]>((resolve, reject) => s.queue.push({ events, resolve, reject }));
  if (!s.running) {
    s.running = true;
    void drain(s);
  }
  return done;
}

const gather = () => new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS));
const waitingEvents = (s: State) => s.queue.reduce((n, w) => n + w.events.length, 0);

async function drain(s: State): Promise<void> {
  try {
    for (;;) {
      if (waitingEvents(s) < MAX_EVENTS) await gather();
      if (!s.queue.length) break;
      const batch: Waiting[] = [];
      let size = 0;
      while (s.queue.length && (batch.length === 0 || size + s.queue[0]!.events.length <= MAX_EVENTS)) {
        const next = s.queue.shift()!;
        batch.push(next);
        size += next.events.length;
      }
      await commit(batch);
    }
  } finally {
    s.running = false;
  }
}

async function commit(batch: Waiting[]): Promise<void> {
  const delay = env().REREAD_COALESCE_MS;
  try {
    const fresh = await recordEvents(batch.flatMap((w) => w.events), delay);
    let at = 0;
    for (const w of batch) {
      w.resolve(fresh.slice(at, at + w.events.length));
      at += w.events.length;
    }
  } catch (e) {
    if (batch.length === 1) return batch[0]!.reject(e);
    for (const w of batch) {
      try {
        w.resolve(await recordEvents(w.events, delay));
      } catch (own) {
        w.reject(own);
      }
    }
  }
}
