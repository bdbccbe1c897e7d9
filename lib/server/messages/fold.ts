/**
 * Folding events into a message's status. Webhooks arrive out of order and more than once,
 * so the fold is monotone: a status only moves forward, final statuses stay, except that a
 * complaint after delivery is what the recipient did next and so wins.
 */
const RANK: Record<string, number> = { queued: 0, scheduled: 0, sending: 1, sent: 2, delivered: 3 };
export const FINAL = new Set(["bounced", "complained", "rejected", "failed", "received"]);

/** The status each known event type implies; `null` means "leaves the status as it is". */
const IMPLIED: Record<string, string | null> = {
  accepted: "queued",
  queued: "queued",
  scheduled: "queued",
  sending: "sending",
  sent: "sent",
  delivery: "delivered",
  delivered: "delivered",
  open: "delivered",
  click: "delivered",
  delivery_delayed: null,
  bounce: "bounced",
  complaint: "complained",
  rejected: "rejected",
  rendering_failure: "failed",
  failed: "failed",
  inbound_received: "received",
  inbound_rejected: "rejected",
};

export function isKnownEventType(type: string): boolean {
  return Object.hasOwn(IMPLIED, type);
}

export function isFinalStatus(status: string): boolean {
  return FINAL.has(status) || status === "delivered";
}

export function foldStatus(current: string, eventType: string): string {
  const implied = Object.hasOwn(IMPLIED, eventType) ? IMPLIED[eventType] : null;
  if (!implied || implied === current) return current;
  if (current === "delivered" && implied === "complained") return "complained";
  // Delivered and the failure states are final: a late "sent", or a bounce racing a delivery
  // that already arrived, cannot move them.
  if (isFinalStatus(current)) return current;
  if (FINAL.has(implied)) return implied;
  const from = RANK[current] ?? -1;
  const to = RANK[implied] ?? -1;
  return to > from ? implied : current;
}

/** Folds a list of event types, in any order, onto a starting status. */
export function foldAll(start: string, types: string[]): string {
  return types.reduce(foldStatus, start);
}
