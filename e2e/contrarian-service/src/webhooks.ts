import { createHmac } from "node:crypto";
import type { ContrarianConfig } from "./config";
import { newId } from "./ids";
import type { DeliveryAttempt, Store, StoredWebhook } from "./store";
import type { Timers } from "./timers";

/** The interface's event types (section 6): what an endpoint subscribes to. */
export const EVENT_TYPES = [
  "accepted", "queued", "sending", "sent", "delivery", "bounce", "complaint", "open", "click",
  "delivery_delayed", "rejected", "rendering_failure", "failed", "inbound_received", "inbound_rejected",
] as const;

/** Something that happened, as the contrarian tells its webhook endpoints. */
export interface Notice {
  /** Section-6 type, for the subscription filter only; it never appears in the payload. */
  type: (typeof EVENT_TYPES)[number];
  /** The contrarian's own event name: `email.delivered`, `inbound.received`. */
  name: string;
  emailId: string;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/**
 * Standard Webhooks signature: HMAC-SHA256 with the base64-decoded secret over
 * `${id}.${timestamp}.${body}`, sent as `v1,<base64>`.
 */
export function sign(secretBase64: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", Buffer.from(secretBase64, "base64")).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

interface Delivery {
  id: string;
  endpoint: StoredWebhook;
  notice: Notice;
  body: string;
}

/** Delivers notices to subscribed endpoints, retries on its own schedule, and logs every attempt. */
export class Dispatcher {
  constructor(
    private readonly config: ContrarianConfig,
    private readonly store: Store,
    private readonly timers: Timers,
  ) {}

  publish(projectId: string, notice: Notice): void {
    for (const endpoint of this.store.webhooks) {
      if (endpoint.deleted || endpoint.projectId !== projectId || !endpoint.eventTypes.includes(notice.type)) continue;
      const body = JSON.stringify({
        event: notice.name,
        occurred_at: notice.occurredAt.toISOString(),
        api_version: "contrarian-2026-01",
        payload: notice.payload,
      });
      const delivery: Delivery = { id: newId("dl", 12), endpoint, notice, body };
      this.timers.after(0, () => this.attempt(delivery, 1));
    }
  }

  private log(delivery: Delivery, attempt: number, status: number | null, error: string | null, outcome: DeliveryAttempt["outcome"]): void {
    this.store.deliveries.push({
      deliveryId: delivery.id,
      endpointId: delivery.endpoint.id,
      projectId: delivery.endpoint.projectId,
      url: delivery.endpoint.url,
      event: delivery.notice.name,
      emailId: delivery.notice.emailId,
      attempt,
      status,
      error,
      at: new Date().toISOString(),
      outcome,
    });
  }

  private async attempt(delivery: Delivery, attempt: number): Promise<void> {
    if (delivery.endpoint.deleted) {
      this.log(delivery, attempt, null, "endpoint deleted", "cancelled");
      return;
    }
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.endpoint.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "contrarian-hooks/1",
          "webhook-id": delivery.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": sign(delivery.endpoint.secret, delivery.id, timestamp, delivery.body),
        },
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.config.webhookTimeoutMs),
      });
      status = response.status;
      const text = await response.text().catch(() => "");
      if (status < 200 || status >= 300) error = text.slice(0, 500) || `HTTP ${status}`;
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    if (status !== null && status >= 200 && status < 300) {
      this.log(delivery, attempt, status, null, "delivered");
      return;
    }
    const delay = this.config.webhookRetryMs[attempt - 1];
    this.log(delivery, attempt, status, error, delay === undefined ? "failed" : "retrying");
    if (delay !== undefined) this.timers.after(delay, () => this.attempt(delivery, attempt + 1));
  }
}
