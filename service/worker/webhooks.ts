import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { DestinationBlockedError, fetchPublic } from "../../contract/net/destination";
import type { Deps } from "../context";
import { webhookDeliveries, webhooks } from "../db/schema";
import { WEBHOOK_DELIVERY_JOB } from "../lib/events";
import { yieldToIo } from "./messages";
import { enqueue, type JobHandlers } from "./queue";
import { webhookPolicy } from "../lib/webhook-destination";

const USER_AGENT = "mail-service-webhooks/1.0";

/** The headers of one signed attempt (Standard Webhooks); `webhook-id` stays the same across retries. */
export function signDelivery(secret: string, deliveryId: string, body: string, at = new Date()) {
  return {
    "webhook-id": deliveryId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(deliveryId, at, body),
  };
}

/**
 * One POST, through fetchPublic: the host is resolved when connecting and every address
 * checked, so an endpoint that now resolves to this machine or the local network is refused
 * without a request (DNS rebinding). Redirects are not followed.
 */
async function post(deps: Deps, url: string, headers: Record<string, string>, body: string): Promise<{ ok: boolean; status: number | null; error: string | null }> {
  const timeoutMs = deps.config.SERVICE_WEBHOOK_TIMEOUT_MS;
  try {
    const res = await fetchPublic(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...headers },
      body,
      timeoutMs,
      policy: webhookPolicy(deps),
      resolve: deps.resolve,
    });
    await res.body?.cancel().catch(() => {});
    return { ok: res.status >= 200 && res.status < 300, status: res.status, error: res.ok ? null : `HTTP ${res.status}` };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    if (e instanceof DestinationBlockedError) return { ok: false, status: null, error: e.message };
    const reason = e.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : (e.cause?.code ?? e.message);
    return { ok: false, status: null, error: reason };
  }
}

/**
 * One attempt of one delivery. A 2xx ends it `delivered`. Anything else schedules the next
 * attempt after the next delay of `SERVICE_WEBHOOK_RETRY_SCHEDULE` (persisted in
 * `next_attempt_at` and as a queued job, so restarts keep it), and after the last delay
 * it ends `failed`. A delivery whose endpoint was deleted or disabled, or that was
 * cancelled, is dropped without a request.
 */
export async function deliver(deps: Deps, payload: Record<string, unknown>) {
  await yieldToIo();
  const id = String(payload.deliveryId);
  const [row] = await deps.db.select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries).innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, id)).limit(1);
  if (!row || row.delivery.state !== "pending") return;
  if (row.webhook.deletedAt || !row.webhook.enabled) {
    await deps.db.update(webhookDeliveries).set({ state: "cancelled" })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, "pending")));
    return;
  }

  const body = JSON.stringify(row.delivery.payload);
  const result = await post(deps, row.webhook.url, signDelivery(row.webhook.secret, id, body), body);
  const attempts = row.delivery.attempts + 1;
  const stillPending = and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, "pending"));

  if (result.ok) {
    await deps.db.update(webhookDeliveries)
      .set({ state: "delivered", attempts, lastStatus: result.status, lastError: null, deliveredAt: new Date() })
      .where(stillPending);
    return;
  }
  const schedule = deps.config.SERVICE_WEBHOOK_RETRY_SCHEDULE;
  const delay = schedule[attempts - 1];
  await deps.db.transaction(async (tx) => {
    if (delay === undefined) {
      await tx.update(webhookDeliveries).set({ state: "failed", attempts, lastStatus: result.status, lastError: result.error }).where(stillPending);
      return;
    }
    const next = new Date(Date.now() + delay);
    const updated = await tx.update(webhookDeliveries)
      .set({ attempts, lastStatus: result.status, lastError: result.error, nextAttemptAt: next })
      .where(stillPending).returning({ id: webhookDeliveries.id });
    if (updated.length) await enqueue(tx, WEBHOOK_DELIVERY_JOB, { deliveryId: id }, next);
  });
}

export const webhookJobHandlers: JobHandlers = { [WEBHOOK_DELIVERY_JOB]: deliver };
