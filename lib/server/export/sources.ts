import "server-only";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { type SuppressionRow } from "@/lib/schemas/suppressions";
import type { AuditEntry, AuditQueryParsed } from "@/lib/schemas/audit";
import { listAudit } from "../audit";
import { searchContactsAfter, type IndexedContact } from "../contacts/index-store";
import type { Project } from "../gate/access";
import { listSuppressions } from "../suppressions";
import type { ExportColumn } from "./format";
import { cursorPages, type PageSource } from "./stream";

/**
 * Suppressions come from the service, whose list is cursor-paged at most 100 a page: an
 * export reads at most this many pages (100,000 addresses) so one click cannot make the
 * dashboard call the service without end (README "Limits").
 */
export const SUPPRESSION_EXPORT_PAGES = 1_000;

export const SUPPRESSION_COLUMNS: ExportColumn<SuppressionRow>[] = [
  { header: "email", value: (r) => r.email },
  { header: "reason", value: (r) => r.reason },
  { header: "created_at", value: (r) => r.createdAt },
  { header: "message_id", value: (r) => r.linkedMessageId },
];

export const suppressionPages = (project: Project): PageSource<SuppressionRow> =>
  cursorPages((cursor) => listSuppressions(project, { cursor, limit: MAX_PAGE_SIZE }), SUPPRESSION_EXPORT_PAGES);

export const AUDIT_COLUMNS: ExportColumn<AuditEntry>[] = [
  { header: "id", value: (r) => r.id },
  { header: "at", value: (r) => r.at },
  { header: "actor", value: (r) => r.actorEmail },
  { header: "action", value: (r) => r.action },
  { header: "project", value: (r) => r.project },
  { header: "target", value: (r) => r.target },
  { header: "outcome", value: (r) => r.outcome },
  { header: "detail", value: (r) => JSON.stringify(r.detail) },
];

/** The audit log as the screen lists it (its filters, secrets already masked), by its keyset cursor. */
export const auditPages = (query: Omit<AuditQueryParsed, "cursor" | "limit">): PageSource<AuditEntry> => cursorPages((cursor) => listAudit({ ...query, cursor, limit: MAX_PAGE_SIZE }));

export const CONTACT_COLUMNS: ExportColumn<IndexedContact>[] = [
  { header: "id", value: (r) => r.id },
  { header: "email", value: (r) => r.email },
  { header: "first_name", value: (r) => r.firstName },
  { header: "last_name", value: (r) => r.lastName },
  { header: "subscribed", value: (r) => String(r.subscribed) },
  { header: "unsubscribed_at", value: (r) => r.unsubscribedAt },
  { header: "created_at", value: (r) => r.createdAt },
  { header: "metadata", value: (r) => (r.metadata ? JSON.stringify(r.metadata) : null) },
];

/**
 * Contacts as the Contacts screen searches them: the dashboard's index (the interface cannot
 * list contacts), where erased addresses are never kept, read by keyset.
 */
export function contactPages(project: Project, q: string): PageSource<IndexedContact> {
  return async function* (signal) {
    let after: { seenAt: string; id: string } | undefined;
    while (!signal.aborted) {
      const page = await searchContactsAfter(project.id, q, 500, after);
      yield page.data;
      if (!page.after) return;
      after = page.after;
    }
  };
}
