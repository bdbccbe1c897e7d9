import { bareAddress } from "@/lib/messages/bare-address";
import type { indexedRecipients } from "@/lib/server/db/schema/messages";

type RecipientRow = typeof indexedRecipients.$inferInsert;
type Role = RecipientRow["role"];

/**
 * The rows of `indexed_recipients` for one message: every address lower-cased, once per role
 * (the primary key is message+email+role, so a repeated `to` must not be inserted twice).
 */
export function recipientRows(
  message: { id: string; projectId: string; from: string; to: string[]; cc?: string[]; bcc?: string[]; createdAt: Date },
): RecipientRow[] {
  const rows = new Map<string, RecipientRow>();
  const add = (role: Role, list: string[]) => {
    for (const raw of list) {
      const email = bareAddress(raw);
      if (!email) continue;
      rows.set(`${role}\u0000${email}`, { messageId: message.id, projectId: message.projectId, email, role, createdAt: message.createdAt });
    }
  };
  add("from", [message.from]);
  add("to", message.to);
  add("cc", message.cc ?? []);
  add("bcc", message.bcc ?? []);
  return [...rows.values()];
}
