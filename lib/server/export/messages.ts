import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { IndexedMessage, MessageListQuery } from "@/lib/schemas/messages-index";
import { db } from "../db";
import { indexedEvents } from "../db/schema/messages";
import type { Project } from "../gate/access";
import { searchMessages } from "../messages/search";
import type { ExportColumn } from "./format";
import type { PageSource } from "./stream";

/** Rows per read: large enough that a million rows are 2,000 reads, small enough that a page is a few hundred KB. */
export const MESSAGE_EXPORT_PAGE = 500;

export type MessageExportRow = IndexedMessage & { lastEvent: string | null; lastEventTime: string | null; failureReason: string | null };

/** What a support ticket needs of a message. */
export const MESSAGE_COLUMNS: ExportColumn<MessageExportRow>[] = [
  { header: "id", value: (r) => r.id },
  { header: "created_at", value: (r) => r.createdAt },
  { header: "direction", value: (r) => r.direction },
  { header: "from", value: (r) => r.from },
  { header: "to", value: (r) => r.to },
  { header: "cc", value: (r) => r.cc },
  { header: "subject", value: (r) => r.subject },
  { header: "status", value: (r) => r.status },
  { header: "last_event", value: (r) => r.lastEvent },
  { header: "last_event_at", value: (r) => r.lastEventTime },
  { header: "failure_reason", value: (r) => r.failureReason },
  { header: "tags", value: (r) => r.tags.map((t) => (t.value ? `${t.name}:${t.value}` : t.name)) },
];

const REASON_KEYS = ["reason", "error", "message", "description", "diagnostic", "response"] as const;

/**
 * The reason a failure event gives, read tolerantly: the interface does not show the shape of
 * an event's data, so the first text under a usual name, at the top or one level down (a
 * `bounce: { message }`), is taken; none is null.
 */
export function reasonOf(data: Record<string, unknown> | null | undefined, depth = 0): string | null {
  if (!data || typeof data !== "object") return null;
  for (const key of REASON_KEYS) {
    const v = data[key];
    if (typeof v === "string" && v.trim()) return v.slice(0, 1000);
  }
  if (depth > 0) return null;
  for (const v of Object.values(data)) {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const found = reasonOf(v as Record<string, unknown>, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

const FAILED = new Set(["bounced", "failed", "complained", "rejected", "dropped"]);

/** Each message's newest event, one query per page (the (message_id, occurred_at) index). */
async function lastEvents(projectId: string, ids: string[]) {
  if (!ids.length) return new Map<string, { type: string; at: Date; data: Record<string, unknown> }>();
  const rows = await (await db())
    .selectDistinctOn([indexedEvents.messageId], { messageId: indexedEvents.messageId, type: indexedEvents.type, at: indexedEvents.occurredAt, data: indexedEvents.data })
    .from(indexedEvents)
    .where(and(eq(indexedEvents.projectId, projectId), inArray(indexedEvents.messageId, ids)))
    .orderBy(asc(indexedEvents.messageId), desc(indexedEvents.occurredAt), desc(indexedEvents.seq));
  return new Map(rows.map((r) => [r.messageId, r]));
}

/**
 * The Messages search as export pages: the same read as the screen (searchMessages, so the
 * same filters, search language, project and erasures — the index holds erased addresses
 * only redacted), in larger keyset pages, with each page's last events joined.
 */
export function messagePages(project: Project, query: MessageListQuery): PageSource<MessageExportRow> {
  return async function* (signal) {
    let cursor: string | undefined;
    while (!signal.aborted) {
      const page = await searchMessages(project.id, { ...query, cursor }, MESSAGE_EXPORT_PAGE);
      const events = await lastEvents(project.id, page.data.map((m) => m.id));
      yield page.data.map((m) => {
        const last = events.get(m.id);
        return {
          ...m,
          lastEvent: last?.type ?? null,
          lastEventTime: last?.at.toISOString() ?? m.lastEventAt,
          failureReason: last && FAILED.has(m.status) ? reasonOf(last.data) : null,
        };
      });
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
  };
}
