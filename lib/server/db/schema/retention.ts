import { boolean, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { projects } from "./core";

/**
 * What an erasure took out of the index (lib/server/retention/erase.ts). The service still
 * holds the message and may announce or return it again; these rows keep it out: a message
 * `deleted` here is not indexed again, and on one that was only stripped the erased address
 * is removed again from whatever a later read brings. The address is kept only as its keyed
 * hash. Pruned with the index after INDEX_RETENTION_DAYS.
 */
export const erasedMessages = pgTable(
  "erased_messages",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    /** HMAC of the lower-cased address (lib/server/retention/address-hash.ts). */
    addressHash: text("address_hash").notNull(),
    /** True when the whole message was removed; false when only this address was. */
    deleted: boolean("deleted").notNull(),
    erasedAt: timestamp("erased_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId, t.addressHash] })],
);
