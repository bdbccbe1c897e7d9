import { boolean, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { projectIdColumn } from "./core";

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
    projectId: projectIdColumn(),
    messageId: text("message_id").notNull(),
    /** HMAC of the lower-cased address (lib/server/retention/address-hash.ts). */
    addressHash: text("address_hash").notNull(),
    /** True when the whole message was removed; false when only this address was. */
    deleted: boolean("deleted").notNull(),
    erasedAt: at("erased_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId, t.addressHash] })],
);
