/**
 * Fixed word lists and limits of the shared schemas, without zod: screens that only list or
 * label them (filters, badges, panels) import them from here and so do not load the schema
 * library. The schemas build their enums from these same lists.
 */

/** Actions recorded by the foundation; feature screens add their own (`webhook.create`, ...). */
export const CORE_AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_out",
  "user.create",
  "user.update",
  "user.password_reset",
  "user.projects",
  "project.register",
  "project.update",
  "project.remove",
] as const;

/** The interface's own words live in contract/wire/words.ts. */
export { DOMAIN_STATUSES, SUPPRESSION_REASONS } from "@/contract/wire/words";

export const BATCH_ROW_STATUSES = ["pending", "sent", "failed", "invalid", "suppressed", "duplicate"] as const;

/** How many links one pre-send reachability check follows. */
export const MAX_LINKS_CHECKED = 50;
export const SEVERITIES = ["error", "warning", "info"] as const;
export const FINDING_KINDS = ["clients", "size", "links", "images", "dark", "text"] as const;

/** The file formats of an export (lib/server/export/): a spreadsheet's, or one JSON object a line. */
export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
/** Rows one export writes at most; the file ends there (README "Limits"). */
export const MAX_EXPORT_ROWS = 1_000_000;
/**
 * How an export that stopped short of the whole search says so: its last line starts with this
 * (CSV) or is a JSON object with this key (NDJSON), naming the limit it reached. A file is
 * streamed, so no header can say it before the rows are written (lib/server/export/stream.ts).
 */
export const EXPORT_STOPPED_CSV = "# Export stopped";
export const EXPORT_STOPPED_KEY = "export_stopped";

/** Recovery codes in a set (issue 29; lib/server/auth/recovery-codes.ts makes them). */
export const RECOVERY_CODE_COUNT = 10;
