import "server-only";
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { IndexedMessage, MessageListPage, MessageListQueryParsed } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { parseSearchQuery } from "@/lib/messages/search-query/parse";
import type { SearchProblem } from "@/lib/messages/search-query/terms";
import { termCondition } from "./search-terms";

/**
 * The columns a listed message needs (toIndexedMessage): a search reads these, not the bodies
 * and headers a row also holds (the export reads a million rows by it, bench:export).
 */
const LISTED = {
  id: indexedMessages.id,
  direction: indexedMessages.direction,
  status: indexedMessages.status,
  from: indexedMessages.from,
  to: indexedMessages.to,
  cc: indexedMessages.cc,
  subject: indexedMessages.subject,
  tags: indexedMessages.tags,
  createdAt: indexedMessages.createdAt,
  lastEventAt: indexedMessages.lastEventAt,
  source: indexedMessages.source,
  threadId: indexedMessages.threadId,
};
type ListedRow = Pick<IndexedMessageRow, keyof typeof LISTED>;

export function toIndexedMessage(r: ListedRow): IndexedMessage {
  return {
    id: r.id,
    direction: r.direction,
    status: r.status,
    from: r.from,
    to: r.to,
    cc: r.cc,
    subject: r.subject,
    tags: r.tags,
    createdAt: r.createdAt.toISOString(),
    lastEventAt: r.lastEventAt?.toISOString() ?? null,
    source: r.source,
    threadId: r.threadId,
  };
}

/** Cursor: the (createdAt, id) of the last row listed — stable while new rows arrive. */
function encodeCursor(row: ListedRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, ...rest] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  const id = rest.join("|");
  if (Number.isNaN(at.getTime()) || !id) throw new AppError(400, "validation_error", "cursor: is not valid", "cursor");
  return { at, id };
}

/**
 * The messages screen's search, newest first: the filters and the search language of `q`
 * (lib/messages/search-query), all terms together. What `q` holds that the dashboard does not
 * understand is left out of the search and returned as `problems`, for the screen to explain.
 * `pageSize` (server only) overrides the query's limit.
 */
export async function searchMessages(projectId: string, input: MessageListQueryParsed, pageSize?: number): Promise<MessageListPage & { problems: SearchProblem[] }> {
  const { query, limit, problems } = await searchQuery(projectId, input, new Date(), pageSize);
  const rows = await query;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { data: pageRows.map(toIndexedMessage), nextCursor: rows.length > limit && last ? encodeCursor(last) : null, problems };
}

/**
 * The search's conditions and page size: the filters and the terms of `q`, without the cursor.
 * The screen's page (searchQuery) and the export's pages (lib/server/export/messages.ts) both
 * read by these, so an export holds exactly what the screen lists.
 */
export async function searchConditions(projectId: string, input: MessageListQueryParsed, now = new Date(), pageSize?: number) {
  // `input` is read with messageListQuery by whoever made it (the route, the page, getRecipient), once.
  // `pageSize`: the server's own larger pages (an export, lib/server/export/), past the screen's limit.
  const q = pageSize ? { ...input, limit: pageSize } : input;
  const where: SQL[] = [eq(indexedMessages.projectId, projectId)];
  if (q.status) where.push(eq(indexedMessages.status, q.status));
  if (q.direction) where.push(eq(indexedMessages.direction, q.direction));
  if (q.from) where.push(gte(indexedMessages.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(indexedMessages.createdAt, new Date(q.to)));
  if (q.tag) {
    const [name, value] = q.tag.split(":");
    const wanted = value === undefined ? [{ name }] : [{ name, value }];
    where.push(sql`${indexedMessages.tags} @> ${JSON.stringify(wanted)}::jsonb`);
  }
  const { terms, problems } = parseSearchQuery(q.q ?? "", now);
  const [only] = terms;
  if (terms.length === 1 && only!.field === "text" && !only!.negated && !only!.phrase && (await findIndexedMessage(projectId, only!.value))) {
    // A pasted id: that message alone, by primary key, not a substring scan.
    where.push(eq(indexedMessages.id, only!.value));
  } else {
    for (const term of terms) where.push(termCondition(projectId, term));
  }
  return { where, limit: q.limit, cursor: q.cursor, problems };
}

/**
 * The search's query, not yet run (`bench:search --explain` prints its plan). Wrapped in an
 * object: a query builder is a thenable, which an async function would run on return.
 */
export async function searchQuery(projectId: string, input: MessageListQueryParsed, now = new Date(), pageSize?: number) {
  const { where, limit, cursor, problems } = await searchConditions(projectId, input, now, pageSize);
  if (cursor) {
    const c = decodeCursor(cursor);
    // The cursor's time is a JavaScript one, cut to the millisecond; the row's own (to the
    // microsecond) is taken by its key, so messages apart by less than a millisecond are not
    // skipped at a page's edge. The cursor's time stands in when that row has gone since.
    const own = sql`(select k.created_at from ${indexedMessages} k where k.id = ${c.id} and k.project_id = ${projectId})`;
    where.push(sql`(${indexedMessages.createdAt}, ${indexedMessages.id}) < (coalesce(${own}, ${c.at.toISOString()}::timestamptz), ${c.id})`);
  }
  const query = (await db())
    .select(LISTED)
    .from(indexedMessages)
    .where(and(...where))
    .orderBy(desc(indexedMessages.createdAt), desc(indexedMessages.id))
    .limit(limit + 1);
  return { query, limit, problems };
}

export async function findIndexedMessage(projectId: string, id: string): Promise<IndexedMessageRow | null> {
  const [row] = await (await db())
    .select()
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, projectId), eq(indexedMessages.id, id)))
    .limit(1);
  return row ?? null;
}
