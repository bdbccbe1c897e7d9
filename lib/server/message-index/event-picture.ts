import "server-only";
import type { indexedRecipients } from "@/lib/server/db/schema/messages";
import { foldStatus } from "./fold";
import { recipientRows } from "./recipients";
import type { DeliveredEvent } from "./payload";

/*
 * The provisional picture of a message that the stream's events paint (./record-event.ts)
 * until a re-read of the service replaces it.
 */
export type RecipientRow = typeof indexedRecipients.$inferInsert;

/** The message as the provisional picture has it, and what the events did to it. */
export type Picture = {
  status: string;
  from: string;
  to: string[];
  subject: string | null;
  html: string | null;
  text: string | null;
  createdAt: Date;
  lastEventAt: Date | null;
};

/**
 * One more event onto a message's picture, by the rules of an update: the status folded,
 * sender and recipients only where still empty (and then indexed), the subject and bodies
 * only where still unknown, the earliest timed event as its creation, the latest event as its
 * last change (`now` standing in for an event without a time, when given). Returns the
 * address rows the step adds.
 */
export function applyEvent(p: Picture, e: DeliveredEvent, g: { projectId: string; messageId: string }, now: Date | null): RecipientRow[] {
  const fillsAddresses = Boolean((e.to && p.to.length === 0) || (e.from && p.from === ""));
  const rows = fillsAddresses ? recipientRows({ id: g.messageId, projectId: g.projectId, from: e.from ?? "", to: e.to ?? [], createdAt: e.occurredAt ?? now ?? new Date() }) : [];
  p.status = foldStatus(p.status, e.type);
  if (e.from && p.from === "") p.from = e.from;
  if (e.to && p.to.length === 0) p.to = e.to;
  p.subject ??= e.subject;
  p.html ??= e.html;
  p.text ??= e.text;
  if (e.occurredAt) {
    if (e.occurredAt < p.createdAt) p.createdAt = e.occurredAt;
    if (!p.lastEventAt || e.occurredAt > p.lastEventAt) p.lastEventAt = e.occurredAt;
  } else if (now && (!p.lastEventAt || now > p.lastEventAt)) {
    p.lastEventAt = now;
  }
  return rows;
}
