import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { contacts } from "../db/schema";

type Writer = Pick<Db, "update">;

/** Contacts are keyed by their lower-cased address, like suppressions. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A complaint or an unsubscribe turns the project's contact for this address (if it has
 * one) to unsubscribed. A contact already unsubscribed keeps its first `unsubscribedAt`.
 * Addresses without a contact are left alone: the suppression list covers them.
 * Returns whether a contact changed.
 */
export async function markUnsubscribed(db: Writer, projectId: string, email: string, at: Date = new Date()): Promise<boolean> {
  const rows = await db.update(contacts)
    .set({ subscribed: false, unsubscribedAt: at })
    .where(and(eq(contacts.projectId, projectId), eq(contacts.email, normalizeEmail(email)), eq(contacts.subscribed, true)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}
