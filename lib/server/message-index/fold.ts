import { STATUS_AFTER_EVENT } from "@/contract/message-status";
import { canonicalEventType, canonicalStatus, isFinalStatus, isKnownEventType as knownEventWord } from "@/lib/messages/vocabulary";

/**
 * Folding events into a message's status. Events arrive out of order and more than once, so
 * the fold is monotone: a status only moves forward, final statuses stay, except that a
 * complaint after delivery is what the recipient did next and so wins. Event words are read
 * through the shared vocabulary (`email.delivered`, `Delivered`… are `delivery`), and what is
 * final is the vocabulary's one list.
 */
const RANK: Record<string, number> = { queued: 0, scheduled: 0, sending: 1, sent: 2, delayed: 2, delivered: 3 };

/**
 * The status each interface event type implies; absent means "leaves the status as it is".
 * The lifecycle events mean what they mean to the local service (the contract's one map); the
 * dashboard adds its tolerance of other providers: an open or a click proves delivery, since a
 * service may report engagement without a delivery event, or before it.
 */
const IMPLIED: Readonly<Record<string, string>> = { ...STATUS_AFTER_EVENT, open: "delivered", click: "delivered" };

export { isFinalStatus };

export function isKnownEventType(type: string): boolean {
  return knownEventWord(type);
}

/** The status an event word implies, or null when it leaves the status alone (unknown words included). */
export function impliedStatus(eventType: string): string | null {
  const type = canonicalEventType(eventType);
  return Object.hasOwn(IMPLIED, type) ? IMPLIED[type] : null;
}

export function foldStatus(current: string, eventType: string): string {
  const implied = impliedStatus(eventType);
  if (!implied || implied === current) return current;
  const now = canonicalStatus(current);
  if (now === "delivered" && implied === "complained") return "complained";
  // Delivered and the failure states are final: a late "sent", or a bounce racing a delivery
  // that already arrived, cannot move them.
  if (isFinalStatus(now)) return current;
  if (isFinalStatus(implied) && implied !== "delivered") return implied;
  const from = RANK[now] ?? -1;
  const to = RANK[implied] ?? -1;
  return to > from ? implied : current;
}

/** Folds a list of event types, in any order, onto a starting status. */
export function foldAll(start: string, types: string[]): string {
  return types.reduce(foldStatus, start);
}
