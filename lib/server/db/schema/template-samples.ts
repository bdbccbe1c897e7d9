import { jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./core";

/** Named merge data per template ("long name", "no optional fields"), shared by the project's users. */
export const templateSamples = pgTable(
  "template_samples",
  {
    id: text("id").primaryKey().$defaultFn(() => crypto.randomUUID()),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The service's template id. */
    templateId: text("template_id").notNull(),
    name: text("name").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by_email").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("template_samples_name_idx").on(t.projectId, t.templateId, t.name)],
);

export type TemplateSampleRow = typeof templateSamples.$inferSelect;
