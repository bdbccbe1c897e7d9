import { createHash } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Deps } from "../context";
import { demoHistories, messageEvents, messages, projects, webhookDeliveries, webhooks } from "../db/schema";
import { webhookPayloadOf, type MessageRow, type Tx } from "../lib/events";
import { STATUS_AFTER_EVENT } from "../../contract/message-status";
import { rowsOf } from "../../contract/db-rows";
import type { EventType, WebhookPayload } from "../../contract/wire";
import { yieldToIo } from "../worker/messages";
import { enqueue, type JobHandlers } from "../worker/queue";
import { deliver } from "../worker/webhooks";

/**
 * The hand-over of a demo project's past to its first webhook endpoint (rule in
 * service/README.md, "Demo history"): every event recorded before the endpoint existed, each
 * delivered once, signed, with its original time, through the normal delivery path, behind
 * live events.
 */
export const DEMO_REPLAY_JOB = "webhook.demo_replay";

/**
 * Messages handed over per job run (about six events each: two deliveries, sent side by side).
 * A live event waits for the run under way, so a run is kept short: measured on the 2-core
 * machine (service/seed/replay.test.ts, seed-history.test.ts), at 64 a live message's delivery
 * came only after 983 of 1,038 past events; at 32 after two runs (505 of 1,316). The production
 * month reached a test receiver in 2.6 s at 64, 3.0 s at 32, 5.4 s at 16 (one delivery a run),
 * and 9.0 s when each message's past was a delivery of its own.
 */
export const REPLAY_BATCH_MESSAGES = 32;
/**
 * Requests in flight for all replays together, so the receiver is never flooded. At four (one
 * delivery a message, then), the dashboard's group commit (which records the deliveries that
 * arrive together in one transaction) recorded one delivery per transaction; sixteen leaves
 * room for every project's run at once.
 */
export const REPLAY_CONCURRENCY = 16;
/**
 * No new request starts after this long in one run (a slow receiver): the run ends well
 * inside the queue's lease, so the job is never taken twice at once; the next run goes on.
 */
const RUN_BUDGET_MS = 15_000;

/**
 * Called in the transaction that creates an endpoint. While a demo project's history is not
 * handed over yet, each new endpoint becomes a candidate with its cut: the last event
 * recorded before it existed. The cut is drawn under a lock that waits for every transaction
 * still writing events, so each event is either up to the cut (past) or written after the
 * endpoint is visible (delivered live), never both. The first candidate queues the hand-over,
 * to start `startDelayMs` later (SERVICE_DEMO_REPLAY_DELAY_MS, 3 s): the receiver stores its
 * secret meanwhile, and a receiver that made two endpoints at once (two processes racing) has
 * deleted the one it does not keep.
 */
export async function offerDemoHistory(tx: Tx, webhook: { id: string; projectId: string }, startDelayMs: number): Promise<boolean> {
  const open = await tx.select({ projectId: demoHistories.projectId }).from(demoHistories)
    .where(and(eq(demoHistories.projectId, webhook.projectId), isNull(demoHistories.replayWebhookId)));
  if (!open.length) return false;
  await tx.execute(sql`lock table message_events in share mode`);
  const [cut] = rowsOf<{ max: number | string | null }>(await tx.execute(sql`select max(id) as max from message_events`));
  const candidate = { webhookId: webhook.id, cutoff: Number(cut?.max ?? 0) };
  const [row] = await tx.update(demoHistories)
    .set({ replayCandidates: sql`${demoHistories.replayCandidates} || ${JSON.stringify([candidate])}::jsonb` })
    .where(and(eq(demoHistories.projectId, webhook.projectId), isNull(demoHistories.replayWebhookId)))
    .returning({ candidates: demoHistories.replayCandidates });
  if (!row) return false;
  if (row.candidates.length === 1) await enqueue(tx, DEMO_REPLAY_JOB, { projectId: webhook.projectId, batch: 0 }, new Date(Date.now() + startDelayMs));
  return true;
}

/**
 * The first run picks the oldest candidate still enabled. None left (all deleted): the
 * candidates are dropped and the next endpoint created starts over.
 */
async function chooseEndpoint(deps: Deps, state: typeof demoHistories.$inferSelect) {
  const ids = state.replayCandidates.map((c) => c.webhookId);
  const alive = ids.length ? await deps.db.select({ id: webhooks.id }).from(webhooks)
    .where(and(inArray(webhooks.id, ids), eq(webhooks.enabled, true), isNull(webhooks.deletedAt))) : [];
  const chosen = state.replayCandidates.find((c) => alive.some((a) => a.id === c.webhookId));
  const open = and(eq(demoHistories.projectId, state.projectId), isNull(demoHistories.replayWebhookId), eq(demoHistories.replayBatch, 0));
  if (!chosen) {
    await deps.db.update(demoHistories).set({ replayCandidates: [] }).where(open);
    return null;
  }
  const [row] = await deps.db.update(demoHistories).set({ replayWebhookId: chosen.webhookId, replayCutoffEventId: chosen.cutoff }).where(open).returning();
  return row ?? null;
}

let active = 0;
const queued: (() => void)[] = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  while (active >= REPLAY_CONCURRENCY) await new Promise<void>((resolve) => queued.push(resolve));
  active++;
  try {
    return await work();
  } finally {
    active--;
    queued.shift()?.();
  }
}

/**
 * Events in one delivery at most: what the dashboard takes at once (MAX_DELIVERY_EVENTS in
 * lib/server/event-stream/ingest-limits.ts). About sixteen messages' pasts (six events each);
 * a long thread's past may need several.
 */
export const REPLAY_EVENTS_PER_DELIVERY = 100;

/** The same id for the same first event and endpoint, so a batch that runs twice inserts once. */
const deliveryId = (webhookId: string, eventId: number) => `whd_${createHash("sha256").update(`${webhookId}:${eventId}`).digest("hex").slice(0, 32)}`;

/**
 * One run: the next few messages (newest first, so the recent past fills in first), their
 * events up to the cut as `webhook_deliveries` rows, delivered with bounded concurrency; then
 * the next run is queued behind whatever live work is due. While the endpoint has a delivery
 * waiting for a retry, the history waits too.
 */
async function replayBatch(deps: Deps, payload: Record<string, unknown>) {
  await yieldToIo();
  const { db } = deps;
  const projectId = String(payload.projectId);
  const batch = Number(payload.batch);
  const [found] = await db.select().from(demoHistories).where(eq(demoHistories.projectId, projectId)).limit(1);
  if (!found || found.replayFinishedAt || found.replayBatch !== batch) return;
  const state = found.replayWebhookId ? found : await chooseEndpoint(deps, found);
  if (!state?.replayWebhookId) return;
  const webhookId = state.replayWebhookId;
  const [hook] = await db.select({ webhook: webhooks, project: projects.externalId }).from(webhooks)
    .innerJoin(projects, eq(projects.id, webhooks.projectId)).where(eq(webhooks.id, webhookId)).limit(1);
  const finish = () => db.update(demoHistories).set({ replayFinishedAt: new Date() })
    .where(and(eq(demoHistories.projectId, projectId), eq(demoHistories.replayBatch, batch)));
  if (!hook || !hook.webhook.enabled || hook.webhook.deletedAt) return void (await finish());

  const failing = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, hook.webhook.id), eq(webhookDeliveries.state, "pending"), sql`${webhookDeliveries.attempts} > 0`)).limit(1);
  if (failing.length) {
    await enqueue(db, DEMO_REPLAY_JOB, payload, new Date(Date.now() + deps.config.SERVICE_WEBHOOK_RETRY_SCHEDULE[0]));
    return;
  }

  // Milliseconds, as a Date holds them: a time stored with microseconds must not repeat forever.
  const at = sql`date_trunc('milliseconds', ${messages.createdAt})`;
  const after = state.replayCursorAt && state.replayCursorId
    ? sql`and (${at}, ${messages.id}) < (${state.replayCursorAt.toISOString()}::timestamptz, ${state.replayCursorId})`
    : sql``;
  const page = await db.select().from(messages)
    .where(sql`${messages.projectId} = ${projectId} ${after}`)
    .orderBy(sql`${at} desc, ${messages.id} desc`).limit(REPLAY_BATCH_MESSAGES);
  if (!page.length) return void (await finish());

  const events = await db.select().from(messageEvents)
    .where(and(inArray(messageEvents.messageId, page.map((m) => m.id)), sql`${messageEvents.id} <= ${state.replayCutoffEventId ?? 0}`))
    .orderBy(messageEvents.id);
  const { rows, events: handedOver } = deliveriesOf(page, events, hook.webhook, hook.project);
  if (rows.length) await db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
  const due = rows.length
    ? await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.id, rows.map((r) => r.id)), eq(webhookDeliveries.state, "pending"), eq(webhookDeliveries.attempts, 0)))
    : [];
  const order = new Map(rows.map((r, i) => [r.id, i]));
  due.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const deadline = Date.now() + RUN_BUDGET_MS;
  const attempted = await Promise.all(due.map((d) => limited(async () => {
    if (Date.now() > deadline) return false;
    await deliver(deps, { deliveryId: d.id });
    return true;
  })));
  if (attempted.includes(false)) {
    // Out of time: the same page again next run, for the deliveries not attempted yet.
    await enqueue(db, DEMO_REPLAY_JOB, payload);
    return deps.kick();
  }

  const last = page[page.length - 1];
  await db.transaction(async (tx) => {
    const moved = await tx.update(demoHistories)
      .set({ replayCursorAt: last.createdAt, replayCursorId: last.id, replayBatch: batch + 1, replayDeliveries: sql`${demoHistories.replayDeliveries} + ${handedOver}` })
      .where(and(eq(demoHistories.projectId, projectId), eq(demoHistories.replayBatch, batch)))
      .returning({ projectId: demoHistories.projectId });
    if (moved.length) await enqueue(tx, DEMO_REPLAY_JOB, { projectId, batch: batch + 1 });
  });
  deps.kick();
}

/**
 * A run's messages as few deliveries as fit: each message's past whole in one delivery (its
 * events in the order they happened, each as the delivery it would have been live: the status
 * it left, its own time), as many messages to a delivery as REPLAY_EVENTS_PER_DELIVERY allows;
 * a past longer than that is split over several. Few requests rather than one an event or one a
 * message: the month is about 14,000 events of 2,600 messages, and each request costs the
 * receiver (and the service) a verification, a transaction and a round trip whatever it carries.
 */
function deliveriesOf(page: MessageRow[], events: (typeof messageEvents.$inferSelect)[], webhook: typeof webhooks.$inferSelect, project: string) {
  const byId = new Map(page.map((m) => [m.id, m]));
  const status = new Map<string, string>();
  const now = new Date();
  type Part = { eventIds: number[]; type: EventType; payloads: WebhookPayload[] };
  // Each message's past, in the order of its first event.
  const pasts = new Map<string, Part>();
  let count = 0;
  for (const e of events) {
    const message = byId.get(e.messageId)!;
    const type = e.type as EventType;
    const current = STATUS_AFTER_EVENT[type] ?? status.get(message.id) ?? message.status;
    status.set(message.id, current);
    if (!webhook.eventTypes.includes(type)) continue;
    let past = pasts.get(message.id);
    if (!past) pasts.set(message.id, (past = { eventIds: [], type, payloads: [] }));
    past.eventIds.push(e.id);
    past.payloads.push(webhookPayloadOf({ message: { ...message, status: current }, type, data: e.data }, project, e.createdAt));
    count++;
  }
  const lists: Part[] = [];
  let open: Part | null = null;
  for (const past of pasts.values()) {
    if (open && open.payloads.length + past.payloads.length <= REPLAY_EVENTS_PER_DELIVERY) {
      open.eventIds.push(...past.eventIds);
      open.payloads.push(...past.payloads);
      continue;
    }
    for (let i = 0; i < past.payloads.length; i += REPLAY_EVENTS_PER_DELIVERY) {
      const end = i + REPLAY_EVENTS_PER_DELIVERY;
      lists.push((open = { eventIds: past.eventIds.slice(i, end), type: past.type, payloads: past.payloads.slice(i, end) }));
    }
  }
  // A delivery's id comes from its first event: the same page makes the same lists.
  const rows: (typeof webhookDeliveries.$inferInsert)[] = lists.map((list) => ({
    id: deliveryId(webhook.id, list.eventIds[0]!), webhookId: webhook.id, eventType: list.type, nextAttemptAt: now, createdAt: now, payload: list.payloads,
  }));
  return { rows, events: count };
}

export const demoReplayJobHandlers: JobHandlers = { [DEMO_REPLAY_JOB]: replayBatch };
