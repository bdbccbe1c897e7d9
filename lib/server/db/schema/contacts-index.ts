import { boolean, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { projectIdColumn } from "./core";

/**
 * The interface cannot list contacts, so the dashboard keeps the ones it created, looked up
 * or imported, as last seen. The service stays the truth: the contact screen re-reads it.
 */
export const contactsIndex = pgTable(
  "contacts_index",
  {
    projectId: projectIdColumn(),
    /** The service's contact id. */
    id: text("id").notNull(),
    /** Lower-cased, for search and look-up by email. */
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    subscribed: boolean("subscribed").notNull(),
    unsubscribedAt: at("unsubscribed_at"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    /** How the dashboard learned of it: `created`, `lookup`, `import`. */
    source: text("source").notNull(),
    createdAt: at("created_at").notNull(),
    seenAt: at("seen_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index("contacts_index_email_idx").on(t.projectId, t.email)],
);

export type ContactIndexRow = typeof contactsIndex.$inferSelect;
