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

/** Messages handed over per job run (about six events each); live jobs wait at most one run. */
export const REPLAY_BATCH_MESSAGES = 16;
/**
 * Requests in flight for all replays together, so the receiver is never flooded. Sixteen, not
 * four: at four, the dashboard's group commit (which records the deliveries that arrive
 * together in one transaction) recorded one delivery per transaction, and the demo's month took
 * 130 s to arrive; at sixteen, with 16 messages a run, 78 s (the 2-core machine, both busy).
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
 * Events in one delivery at most: a message's past is one request (about six events; a long
 * thread more), well inside what a receiver takes at once (the dashboard: 100).
 */
export const REPLAY_EVENTS_PER_DELIVERY = 50;

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
 * Each message's past as one delivery: its events in order, each as the delivery it would have
 * been live (the status it left, its own time), as a list (at most REPLAY_EVENTS_PER_DELIVERY;
 * a longer past is several). One request a message rather than one an event: the month is
 * about 14,000 events of 2,600 messages, and each request costs the receiver (and the service)
 * a verification, a transaction and a round trip whatever it carries.
 */
function deliveriesOf(page: MessageRow[], events: (typeof messageEvents.$inferSelect)[], webhook: typeof webhooks.$inferSelect, project: string) {
  const byId = new Map(page.map((m) => [m.id, m]));
  const status = new Map<string, string>();
  const now = new Date();
  const lists = new Map<string, { firstEventId: number; type: EventType; payloads: WebhookPayload[] }>();
  const inOrder: { firstEventId: number; type: EventType; payloads: WebhookPayload[] }[] = [];
  let count = 0;
  for (const e of events) {
    const message = byId.get(e.messageId)!;
    const type = e.type as EventType;
    const current = STATUS_AFTER_EVENT[type] ?? status.get(message.id) ?? message.status;
    status.set(message.id, current);
    if (!webhook.eventTypes.includes(type)) continue;
    let list = lists.get(message.id);
    if (!list || list.payloads.length >= REPLAY_EVENTS_PER_DELIVERY) {
      list = { firstEventId: e.id, type, payloads: [] };
      lists.set(message.id, list);
      inOrder.push(list);
    }
    list.payloads.push(webhookPayloadOf({ message: { ...message, status: current }, type, data: e.data }, project, e.createdAt));
    count++;
  }
  // In the order of each list's first event, as the events were recorded.
  const rows: (typeof webhookDeliveries.$inferInsert)[] = inOrder.map((list) => ({
    id: deliveryId(webhook.id, list.firstEventId), webhookId: webhook.id, eventType: list.type, nextAttemptAt: now, createdAt: now, payload: list.payloads,
  }));
  return { rows, events: count };
}

export const demoReplayJobHandlers: JobHandlers = { [DEMO_REPLAY_JOB]: replayBatch };
