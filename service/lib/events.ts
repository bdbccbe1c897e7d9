import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { STATUS_AFTER_EVENT } from "../../contract/message-status";
import type { EventType, WebhookPayload } from "../../contract/wire";
import type { Db } from "../db/client";
import { messageEvents, messages, projects, webhookDeliveries, webhooks } from "../db/schema";
import { enqueueMany } from "../worker/queue";
import { newId } from "./ids";
import { rowsOf } from "../../contract/db-rows";

export type MessageRow = typeof messages.$inferSelect;
/** A database or an open transaction: every write here joins the caller's transaction. */
export type Tx = Pick<Db, "insert" | "update" | "select" | "execute">;

export type NewEvent = { message: MessageRow; type: EventType; data?: Record<string, unknown>; at?: Date };

export const WEBHOOK_DELIVERY_JOB = "webhook.deliver";

/**
 * Records events of messages whose rows already carry the resulting status (new messages,
 * accepted or received), with a few multi-row inserts, and fans each out to the project's subscribed webhooks:
 * one `webhook_deliveries` row and one queued job per endpoint, in the caller's transaction,
 * so an event and its notifications exist together or not at all.
 */
export async function insertEvents(tx: Tx, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const at = new Date();
  await tx.insert(messageEvents).values(
    events.map((e) => ({ messageId: e.message.id, type: e.type, data: e.data ?? {}, createdAt: e.at ?? at })),
  );
  await fanOut(tx, events, at);
}

export type NextJob = { kind: string; payload: Record<string, unknown>; runAt: Date };

/**
 * One lifecycle step of one message, as a single SQL statement (so it is atomic without a
 * transaction, and cheap: the worker records several per message): the status the event
 * implies, the event, one `webhook_deliveries` row and one delivery job per enabled endpoint
 * of the project subscribed to the type, and optionally the message's next job.
 * With `expect`, the step happens only while the message is in one of those statuses (a
 * conditional update), so a step that runs twice records once; the answer is then null.
 */
export async function recordEvent(
  tx: Tx,
  message: MessageRow,
  type: EventType,
  data: Record<string, unknown> = {},
  opts: { expect?: readonly string[]; next?: NextJob } = {},
): Promise<MessageRow | null> {
  // The status after each event is the contract's one map; events absent there leave it unchanged.
  const status = STATUS_AFTER_EVENT[type] ?? message.status;
  const at = new Date();
  const updated: MessageRow = { ...message, status, updatedAt: at };
  // The payload is built here; the project's external id is filled in by the statement.
  const payload = webhookPayloadOf({ message: updated, type, data }, "", at);
  const guard = opts.expect ? sql`and status in (${sql.join(opts.expect.map((v) => sql`${v}`), sql`, `)})` : sql``;
  const next = opts.next
    ? sql`, n as (insert into jobs (kind, payload, run_at) select ${opts.next.kind}, ${JSON.stringify(opts.next.payload)}::jsonb, ${opts.next.runAt.toISOString()}::timestamptz from m)`
    : sql``;
  const result = await tx.execute(sql`
    with m as (
      update messages set status = ${status}, updated_at = ${at.toISOString()}::timestamptz
      where id = ${message.id} ${guard}
      returning id, project_id
    ), e as (
      insert into message_events (message_id, type, data, created_at)
      select id, ${type}, ${JSON.stringify(data)}::jsonb, ${at.toISOString()}::timestamptz from m
    ), d as (
      insert into webhook_deliveries (id, webhook_id, event_type, payload, next_attempt_at)
      select 'whd_' || replace(gen_random_uuid()::text, '-', ''), w.id, ${type},
        jsonb_set(${JSON.stringify(payload)}::jsonb, '{data,project}', to_jsonb(p.external_id)), ${at.toISOString()}::timestamptz
      from m
      join webhooks w on w.project_id = m.project_id and w.enabled and w.deleted_at is null
        and w.event_types @> jsonb_build_array(${type}::text)
      join projects p on p.id = m.project_id
      returning id
    ), j as (
      insert into jobs (kind, payload, run_at)
      select ${WEBHOOK_DELIVERY_JOB}, jsonb_build_object('deliveryId', d.id), ${at.toISOString()}::timestamptz from d
    )${next}
    select count(*)::int as n from m`);
  const rows = rowsOf<{ n: number }>(result);
  return Number(rows[0]?.n) > 0 ? updated : null;
}

/** Endpoints of these projects, enabled and not deleted, with the project's external id. */
async function endpointsOf(tx: Tx, projectIds: string[]) {
  return tx
    .select({ id: webhooks.id, projectId: webhooks.projectId, eventTypes: webhooks.eventTypes, project: projects.externalId })
    .from(webhooks)
    .innerJoin(projects, eq(projects.id, webhooks.projectId))
    .where(and(inArray(webhooks.projectId, projectIds), eq(webhooks.enabled, true), isNull(webhooks.deletedAt)));
}

async function fanOut(tx: Tx, events: NewEvent[], at: Date) {
  const projectIds = [...new Set(events.map((e) => e.message.projectId))];
  const endpoints = await endpointsOf(tx, projectIds);
  if (!endpoints.length) return;
  const deliveries: (typeof webhookDeliveries.$inferInsert)[] = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.projectId !== event.message.projectId || !endpoint.eventTypes.includes(event.type)) continue;
      deliveries.push({
        id: newId("whd"),
        webhookId: endpoint.id,
        eventType: event.type,
        payload: webhookPayloadOf(event, endpoint.project, event.at ?? at),
        nextAttemptAt: at,
      });
    }
  }
  if (!deliveries.length) return;
  await tx.insert(webhookDeliveries).values(deliveries);
  await enqueueMany(tx, deliveries.map((d) => ({ kind: WEBHOOK_DELIVERY_JOB, payload: { deliveryId: d.id }, runAt: at })));
}

/** The body of one delivery (`webhookPayload` in contract/wire/webhooks.ts), fixed at event time. */
export function webhookPayloadOf(event: NewEvent, project: string, at: Date): WebhookPayload {
  const m = event.message;
  const inbound = m.direction === "inbound";
  return {
    type: event.type,
    createdAt: at.toISOString(),
    data: {
      messageId: m.id,
      project,
      direction: inbound ? "inbound" : "outbound",
      from: formatAddress(m.from, m.fromName),
      to: m.to.map((a) => a.email),
      subject: m.subject,
      status: m.status,
      eventData: event.data ?? {},
      // Inbound mail is only useful to a receiver with its content; outbound content is the sender's own.
      ...(inbound ? { text: m.text, html: m.html } : {}),
    },
  };
}

/** `Name <email>` when a display name is known, else the bare address. */
export function formatAddress(email: string, name?: string | null): string {
  if (!name) return email;
  const quoted = /[",.:;<>@[\]()\\]/.test(name) ? `"${name.replace(/(["\\])/g, "\\$1")}"` : name;
  return `${quoted} <${email}>`;
}
