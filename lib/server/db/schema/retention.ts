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
    /** HMAC of the lower-cased address (lib/server/redaction/address-hash.ts). */
    addressHash: text("address_hash").notNull(),
    /** True when the whole message was removed; false when only this address was. */
    deleted: boolean("deleted").notNull(),
    erasedAt: at("erased_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId, t.addressHash] })],
);

/**
 * The addresses erased in a project (lib/server/retention/erase.ts), for every later writer of
 * the dashboard's records: whatever the service announces or returns, whatever staff type,
 * these addresses are redacted before a row is written (lib/server/redaction/redactor.ts). The
 * hash finds the row; the address itself is kept sealed (AES-256-GCM under a key derived from
 * AUTH_SECRET), since finding it inside a subject or a body needs the address, not its hash.
 * A copy of the database alone tells neither. Never pruned: an erasure holds for good.
 */
export const erasedAddresses = pgTable(
  "erased_addresses",
  {
    projectId: projectIdColumn(),
    /** HMAC of the lower-cased address (lib/server/redaction/address-hash.ts), also its marker in redacted text. */
    addressHash: text("address_hash").notNull(),
    /** The address, sealed (lib/server/redaction/sealed-address.ts). */
    sealed: text("sealed").notNull(),
    erasedAt: at("erased_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.addressHash] })],
);
