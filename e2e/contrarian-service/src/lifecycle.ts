import type { ContrarianConfig } from "./config";
import type { EventElement, Store, StoredMessage } from "./store";
import type { Timers } from "./timers";
import type { Dispatcher, Notice } from "./webhooks";

/** The reason text a bounce carries, so a test can look for it on a screen. */
export const BOUNCE_REASON = "550 5.1.10 Recipient address rejected: the contrarian knows no such mailbox";

/** The word a message ends with when its recipient's address contains `expire`: no dashboard knows it. */
export const UNFAMILIAR_FINAL_STATUS = "expired";

/** Status words after `queued`. */
export const STATUS = {
  processing: "processing",
  delivered: "delivery_succeeded",
  bounced: "hard_bounce",
  complained: "spam_complaint",
  expired: UNFAMILIAR_FINAL_STATUS,
  blocked: "blocked",
  received: "Received",
} as const;

type Outcome = "deliver" | "bounce" | "complain" | "expire";

/** The first recipient whose local part names an outcome decides it; everything else is delivered. */
export function outcomeFor(recipients: string[]): { outcome: Outcome; recipient: string } {
  for (const address of recipients) {
    const local = address.split("@")[0]?.toLowerCase() ?? "";
    if (local.includes("bounce")) return { outcome: "bounce", recipient: address };
    if (local.includes("complain")) return { outcome: "complain", recipient: address };
    if (local.includes("expire")) return { outcome: "expire", recipient: address };
  }
  return { outcome: "deliver", recipient: recipients[0] ?? "" };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Moves messages through their lifecycle on timers, one event and one notice per step. */
export class Lifecycle {
  constructor(
    private readonly config: ContrarianConfig,
    private readonly store: Store,
    private readonly timers: Timers,
    private readonly dispatcher: Dispatcher,
  ) {}

  private step(m: StoredMessage, element: Omit<EventElement, "timestamp">, notice: Pick<Notice, "type" | "name"> & { payload?: Record<string, unknown> }, status?: string): void {
    const at = new Date();
    const { details, ...rest } = element;
    m.events.push({ ...rest, timestamp: Math.floor(at.getTime() / 1000), ...(details ? { details } : {}) });
    if (status) m.status = status;
    this.dispatcher.publish(m.projectId, {
      type: notice.type,
      name: notice.name,
      emailId: m.id,
      occurredAt: at,
      payload: { email_id: m.id, recipient: m.to[0] ?? null, ...notice.payload },
    });
  }

  /** A message just accepted: `queued`, then the lifecycle on timers. */
  accept(m: StoredMessage): void {
    m.status = "queued";
    this.step(m, { event: "Accepted" }, { type: "accepted", name: "email.accepted" });
    const wait = m.scheduledAt ? Math.max(0, m.scheduledAt.getTime() - Date.now()) : 0;
    if (m.scheduledAt) {
      this.step(m, { event: "Scheduled", details: { sendAt: m.scheduledAt.toISOString() } }, { type: "queued", name: "email.scheduled" });
    }
    this.timers.after(wait + this.config.stepMs, () => this.leaveQueue(m));
  }

  private leaveQueue(m: StoredMessage): void {
    const recipients = [...m.to, ...m.cc, ...m.bcc];
    const blocked = recipients.map((r) => ({ r, s: this.store.suppressionOf(m.projectId, r) })).find((x) => x.s);
    if (blocked?.s) {
      this.step(
        m,
        { event: "Blocked", details: { address: blocked.r, suppressionReason: blocked.s.reason } },
        { type: "rejected", name: "email.blocked", payload: { blocked: { address: blocked.r, reason: blocked.s.reason } } },
        STATUS.blocked,
      );
      return;
    }
    this.step(m, { event: "Processing", details: { mx: "mx.receiver.invalid" } }, { type: "sending", name: "email.processing" }, STATUS.processing);
    this.timers.after(this.config.stepMs, () => this.finish(m, outcomeFor(recipients)));
  }

  private deliver(m: StoredMessage): void {
    this.step(m, { event: "Delivered", details: { smtpResponse: "250 2.0.0 Ok: queued as C0NTR4" } }, { type: "delivery", name: "email.delivered" }, STATUS.delivered);
  }

  private finish(m: StoredMessage, { outcome, recipient }: { outcome: Outcome; recipient: string }): void {
    if (outcome === "deliver") return this.deliver(m);
    if (outcome === "bounce") {
      this.store.addSuppression(m.projectId, recipient, "permanent_bounce", "bounce");
      this.step(
        m,
        { event: "HardBounce", details: { recipient, bounceReason: BOUNCE_REASON, smtpCode: 550 } },
        { type: "bounce", name: "email.bounced", payload: { recipient, bounce: { reason: BOUNCE_REASON } } },
        STATUS.bounced,
      );
      return;
    }
    if (outcome === "complain") {
      this.deliver(m);
      this.timers.after(this.config.stepMs, () => {
        this.store.addSuppression(m.projectId, recipient, "spam_report", "complaint");
        for (const c of this.store.contacts) {
          if (c.projectId === m.projectId && c.email.toLowerCase() === recipient.toLowerCase() && c.subscribed) {
            c.subscribed = false;
            c.unsubscribedAt = new Date();
          }
        }
        this.step(m, { event: "SpamReport", details: { recipient, feedbackType: "abuse" } }, { type: "complaint", name: "email.complained", payload: { recipient } }, STATUS.complained);
      });
      return;
    }
    this.step(m, { event: "Deferred", details: { smtpResponse: "451 4.4.1 No answer from the receiving host" } }, { type: "delivery_delayed", name: "email.deferred" });
    this.timers.after(this.config.stepMs, () =>
      this.step(m, { event: "Expired", details: { note: "Gave up after the retry window" } }, { type: "failed", name: "email.expired" }, STATUS.expired),
    );
  }

  /** A simulated inbound message: stored `Received` at once, and told to subscribed endpoints. */
  receive(m: StoredMessage): void {
    m.status = STATUS.received;
    const at = new Date();
    m.events.push({ event: "Received", timestamp: nowSeconds(), details: { source: "simulation", spamScore: 0.1 } });
    this.dispatcher.publish(m.projectId, {
      type: "inbound_received",
      name: "inbound.received",
      emailId: m.id,
      occurredAt: at,
      payload: { email_id: m.id, from: m.from, to: m.to, subject: m.subject },
    });
  }
}
