import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "./columns";
import { users } from "./core";

/**
 * Keys created through the dashboard. The interface cannot list keys, so the dashboard keeps
 * its own record of what it created — name, scope, who, when — and never the secret (nor its
 * readable prefix): the service answers it once and it goes straight to the browser.
 */
export const dashboardApiKeys = pgTable(
  "dashboard_api_keys",
  {
    /** The service's key id. */
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** External id of the project the key is tied to; null for an account-wide key. */
    project: text("project"),
    /** External id of the project whose screen created it (account-wide keys are listed there). */
    createdIn: text("created_in").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Kept as text so the list still says who after the user is removed. */
    createdByEmail: text("created_by_email").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    /** Set when revoked through the dashboard (on a service that offers revoking). */
    revokedAt: at("revoked_at"),
    revokedByEmail: text("revoked_by_email"),
  },
  (t) => [index("dashboard_api_keys_project_idx").on(t.project), index("dashboard_api_keys_created_in_idx").on(t.createdIn)],
);
