import "server-only";
import { asc } from "drizzle-orm";
import { isAppError } from "@/lib/errors";
import { safeErrorSummary } from "@/contract/log/safe-error";
import type { DueGate } from "@/contract/db/due-gate";
import { db, dueGate, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { env } from "@/lib/server/env";
import { refusedByService, removeDisownedPlaceholder } from "./disowned";
import { indexServiceMessage } from "./lookup";
import { invalidateMessage } from "./read";
import { service } from "@/lib/server/service";
import { nudgeDmarcJobs } from "@/lib/server/dmarc/job";
import { queueDmarcReport } from "@/lib/server/dmarc/queue";
import { looksLikeAggregateReport } from "@/lib/server/dmarc/recognise";
import { anyDue, claimRereads, clearPause, dropReread, finishReread, nextRereadDue, pauseProject, pauses, releaseReread, type Reread } from "./reread-queue";

/**
 * The re-read worker: reads queued messages back from the service and indexes the answer as
 * the truth. Per project it keeps at most REREAD_CONCURRENCY reads under way and starts at
 * most REREAD_RATE_PER_S a second (a token bucket, per process); a 429 pauses the project
 * for everyone sharing the database (Retry-After, or a doubling back-off), other failures
 * back off per message. It runs in the background of each dashboard process
 * (lib/server/event-stream/background.ts); the ingest nudges it, and it looks for due work every
 * IDLE_POLL_MS otherwise, so reads another instance queued or a restart left are found. After a
 * pass that started nothing, that look is the due gate's (lib/server/db dueGate): on PGlite it
 * asks the database nothing until a write comes or a queued read falls due.
 */
const IDLE_POLL_MS = 1_000;
/** A message the service refuses (./disowned.ts) is tried this many times (it may not be readable yet). */
const REFUSED_ATTEMPTS = 4;
const MAX_ATTEMPTS = 8;
/** After giving up on a message, the reconciler leaves it alone this long. */
const GIVE_UP_QUIET_MS = 60 * 60_000;
/** Reads under way at once in one process, all projects together. */
const PROCESS_CONCURRENCY = 32;

type Bucket = { active: number; tokens: number; refilledAt: number };
type State = {
  instance: string;
  running: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  wakeAt: number;
  ticking: Promise<number> | null;
  inFlight: Set<Promise<void>>;
  buckets: Map<string, Bucket>;
  warned: Set<string>;
  gate: DueGate;
  /** Whether the last pass started nothing: the next look goes through the gate. */
  idle: boolean;
  /** A look of the gate under way, which a stop waits for. */
  probing: Promise<boolean> | null;
};

// On globalThis: the ingest route (which nudges) and instrumentation (which runs it) are separate bundles.
const KEY = Symbol.for("mail-dashboard.reread-worker");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= {
    instance: crypto.randomUUID(),
    running: false,
    timer: null,
    wakeAt: Infinity,
    ticking: null,
    inFlight: new Set(),
    buckets: new Map(),
    warned: new Set(),
    gate: dueGate(nextRereadDue),
    idle: false,
    probing: null,
  });
}

const leaseMs = () => Math.max(30_000, 3 * env().SERVICE_TIMEOUT_MS);

function bucket(projectId: string): Bucket {
  const s = state();
  const rate = env().REREAD_RATE_PER_S;
  let b = s.buckets.get(projectId);
  const now = Date.now();
  if (!b) s.buckets.set(projectId, (b = { active: 0, tokens: rate, refilledAt: now }));
  b.tokens = Math.min(rate, b.tokens + ((now - b.refilledAt) / 1000) * rate);
  b.refilledAt = now;
  return b;
}

function warnOnce(projectExternalId: string, code: string, message: string): void {
  const key = `${projectExternalId}\u0000${code}`;
  const s = state();
  if (s.warned.has(key)) return;
  s.warned.add(key);
  console.warn(`re-read: project ${projectExternalId}: ${message} (logged once per project and kind)`);
}

/**
 * What a failed read is logged and queued with: the service's answer (status, code, its
 * message) or, for anything else, a summary that names no value (a failed query's error
 * carries its parameters: contract/log/safe-error.ts).
 */
function whatFailed(e: unknown): string {
  return isAppError(e) ? `${e.status} ${e.code}: ${e.message.slice(0, 200)}` : safeErrorSummary(e).split("\n")[0]!;
}

async function read(d: Db, project: { id: string; externalId: string }, r: Reread, hadPause: boolean): Promise<void> {
  const inst = state().instance;
  try {
    const message = await service.emails.get(project.externalId, r.messageId);
    await indexServiceMessage(project.id, message);
    invalidateMessage(project.id, r.messageId);
    // A DMARC report is read by its own background job (lib/server/dmarc/job.ts), queued once per message.
    if (looksLikeAggregateReport(message) && (await queueDmarcReport(d, project.id, r.messageId))) nudgeDmarcJobs();
    await finishReread(d, r, inst, env().REREAD_COALESCE_MS);
    if (hadPause) await clearPause(d, project.id);
  } catch (e) {
    const text = whatFailed(e);
    if (isAppError(e) && e.status === 429) {
      await pauseProject(d, project.id, e.retryAfterMs ?? null);
      await releaseReread(d, r, inst, 0, text, false);
      return;
    }
    const attempts = r.attempts + 1;
    // Not "a 404": the interface names no answer for an unknown message (lib/server/message-index/disowned.ts).
    const refused = refusedByService(e);
    if (attempts >= (refused ? REFUSED_ATTEMPTS : MAX_ATTEMPTS)) {
      // A message known only from deliveries that the service disowns goes.
      const outcome = refused ? await removeDisownedPlaceholder(d, project, r.messageId) : null;
      if (outcome === "removed") invalidateMessage(project.id, r.messageId);
      await dropReread(d, r, inst, GIVE_UP_QUIET_MS);
      warnOnce(project.externalId, outcome ?? "failed", outcome === "removed"
        ? `the service refuses message ${r.messageId} (${text}), which only deliveries named; removed from the index`
        : outcome === "unverified"
          ? `the service refuses message ${r.messageId} (${text}), which only deliveries named, but no message of the project could be read to show the refusal is about that message alone; the index keeps what it had`
          : outcome === "not_placeholder"
            ? `the service refuses message ${r.messageId} (${text}); the index keeps what it had`
            : `message ${r.messageId} could not be read after ${attempts} attempts: ${text}`);
      return;
    }
    await releaseReread(d, r, inst, Math.min(300_000, env().REREAD_RETRY_BASE_MS * 2 ** attempts), text, true);
  }
}

/** One pass: claims what every project may start now and starts it. Returns how many reads started. */
export async function runRereadTick(): Promise<number> {
  const s = state();
  if (s.ticking) return s.ticking;
  s.ticking = (async () => {
    const d = await db();
    const [all, paused] = await Promise.all([d.select({ id: projects.id, externalId: projects.externalId }).from(projects).orderBy(asc(projects.createdAt)), pauses(d)]);
    let started = 0;
    for (const project of all) {
      const pausedUntil = paused.get(project.id);
      if (pausedUntil && pausedUntil.getTime() > Date.now()) continue;
      const b = bucket(project.id);
      const room = Math.min(env().REREAD_CONCURRENCY - b.active, Math.floor(b.tokens), PROCESS_CONCURRENCY - s.inFlight.size);
      if (room <= 0) continue;
      const claimed = await claimRereads(d, project.id, room, s.instance, leaseMs());
      for (const r of claimed) {
        b.tokens -= 1;
        b.active += 1;
        started += 1;
        const p: Promise<void> = read(d, project, r, pausedUntil !== undefined)
          .catch((e) => console.error(`re-read ${r.messageId}: ${safeErrorSummary(e)}`))
          .finally(() => {
            b.active -= 1;
            s.inFlight.delete(p);
            if (s.running) wake(0);
          });
        s.inFlight.add(p);
      }
    }
    return started;
  })().finally(() => {
    s.ticking = null;
  });
  return s.ticking;
}

/** A pass, unless the last one started nothing and the gate says no read has fallen due since. */
async function tickIfDue(): Promise<number> {
  const s = state();
  if (s.idle) {
    s.probing = s.gate.due();
    const due = await s.probing.finally(() => (s.probing = null));
    // Stopped while the gate looked: no pass starts after a stop.
    if (!due || !s.running) return 0;
  }
  const started = await runRereadTick();
  s.idle = started === 0;
  return started;
}

/** Schedules the next pass in `delayMs`, unless one is due sooner. */
function wake(delayMs: number): void {
  const s = state();
  if (!s.running) return;
  const at = Date.now() + delayMs;
  if (s.timer && s.wakeAt <= at) return;
  if (s.timer) clearTimeout(s.timer);
  s.wakeAt = at;
  s.timer = setTimeout(() => {
    s.timer = null;
    s.wakeAt = Infinity;
    void tickIfDue()
      .then((started) => wake(started > 0 ? 0 : untilTokens() ?? IDLE_POLL_MS))
      .catch((e) => {
        console.warn(`re-read: ${safeErrorSummary(e)}`);
        wake(IDLE_POLL_MS);
      });
  }, Math.max(0, delayMs));
  s.timer.unref?.();
}

/** When some project ran out of tokens, the time until it has one again; null when none is waiting. */
function untilTokens(): number | null {
  const rate = env().REREAD_RATE_PER_S;
  let soonest: number | null = null;
  for (const b of state().buckets.values()) {
    const tokens = Math.min(rate, b.tokens + ((Date.now() - b.refilledAt) / 1000) * rate);
    if (tokens >= 1 || b.active >= env().REREAD_CONCURRENCY) continue;
    const wait = Math.ceil(((1 - tokens) / rate) * 1000);
    soonest = soonest === null ? wait : Math.min(soonest, wait);
  }
  return soonest === null ? null : Math.min(soonest, IDLE_POLL_MS);
}

/** The ingest's hint: a read was queued `delayMs` from now. */
export function nudgeRereads(delayMs = 0): void {
  state().gate.wake();
  wake(delayMs);
}

export function startRereadWorker(): void {
  const s = state();
  if (s.running) return;
  s.running = true;
  s.gate.wake();
  wake(0);
}

/** Stops taking work and waits for the reads under way. */
export async function stopRereadWorker(): Promise<void> {
  const s = state();
  s.running = false;
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  s.wakeAt = Infinity;
  if (s.probing) await s.probing.catch(() => false);
  if (s.ticking) await s.ticking.catch(() => 0);
  await Promise.allSettled([...s.inFlight]);
}

/** Tests and scripts: runs passes until no read is due (reads not due yet, or of a paused project, stay queued). */
export async function drainRereads(): Promise<void> {
  const s = state();
  for (;;) {
    const busy = s.inFlight.size > 0;
    const started = await runRereadTick();
    await Promise.allSettled([...s.inFlight]);
    if (started > 0 || busy) continue;
    if (!(await anyDue(await db()))) return;
    // Due, but the project's rate budget is spent for now.
    await new Promise((resolve) => setTimeout(resolve, untilTokens() ?? 50));
  }
}

/** Tests: a fresh rate budget and warnings. */
export function resetRereadWorkerMemory(): void {
  const s = state();
  s.buckets.clear();
  s.warned.clear();
}
