import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, generatedId } from "./columns";
import { projectIdColumn, users } from "./core";

/**
 * A named search of the Messages screen (issue 28): the URL's search state, never results.
 * Private to its owner, or shared with everyone who can read the project's messages. Bounds: lib/schemas/saved-views.ts.
 */
export const savedViews = pgTable(
  "saved_views",
  {
    id: generatedId(),
    projectId: projectIdColumn(),
    /** The owner: only they rename or delete it (an admin too, when it is shared). */
    ownerId: text("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    shared: boolean("shared").notNull().default(false),
    /** The search as URL parameters (`q=…&status=…`), in a canonical order. */
    state: text("state").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("saved_views_owner_name_idx").on(t.projectId, t.ownerId, t.name),
    index("saved_views_shared_idx").on(t.projectId, t.shared),
    // A user removed takes their views with them without a scan.
    index("saved_views_owner_idx").on(t.ownerId),
  ],
);

export type SavedViewRow = typeof savedViews.$inferSelect;
