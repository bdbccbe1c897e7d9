import { z } from "zod";
import { EXPORT_FORMATS } from "./words";

/** `?format=` of every export route (lib/server/export/): the rest of the query is the screen's own filter. */
export const exportFormat = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `must be one of: ${EXPORT_FORMATS.join(", ")}` }).default("csv"),
});
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
