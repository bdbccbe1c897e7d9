import { jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, generatedId } from "./columns";
import { projectIdColumn } from "./core";

/** Named merge data per template ("long name", "no optional fields"), shared by the project's users. */
export const templateSamples = pgTable(
  "template_samples",
  {
    id: generatedId(),
    projectId: projectIdColumn(),
    /** The service's template id. */
    templateId: text("template_id").notNull(),
    name: text("name").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by_email").notNull(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("template_samples_name_idx").on(t.projectId, t.templateId, t.name)],
);

export type TemplateSampleRow = typeof templateSamples.$inferSelect;
