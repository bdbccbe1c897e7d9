import "server-only";
import { and, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { messageListQuery, type IndexedMessage, type MessageListPage, type MessageListQuery } from "@/lib/schemas/messages-index";
import { db } from "@/lib/server/db";
import { indexedMessages, indexedRecipients, type IndexedMessageRow } from "@/lib/server/db/schema/messages";
import { EMAIL_PATTERN } from "@/lib/schemas/common";

export function toIndexedMessage(r: IndexedMessageRow): IndexedMessage {
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
function encodeCursor(row: IndexedMessageRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, ...rest] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  const id = rest.join("|");
  if (Number.isNaN(at.getTime()) || !id) throw new AppError(400, "validation_error", "cursor: is not valid", "cursor");
  return { at, id };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The messages screen's search, newest first. An address is matched exactly through
 * `indexed_recipients` (any role, so sender and recipients alike, on its index); other text
 * matches an id exactly or the subject/sender by substring.
 */
export async function searchMessages(projectId: string, input: MessageListQuery): Promise<MessageListPage> {
  const { query, limit } = await searchQuery(projectId, input);
  const rows = await query;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { data: pageRows.map(toIndexedMessage), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * The search's query, not yet run (`bench:search --explain` prints its plan). Wrapped in an
 * object: a query builder is a thenable, which an async function would run on return.
 */
export async function searchQuery(projectId: string, input: MessageListQuery) {
  const q = messageListQuery.parse(input);
  const d = await db();
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
  if (q.q) {
    const text = q.q;
    if (EMAIL_PATTERN.test(text)) {
      const email = text.toLowerCase();
      where.push(
        inArray(
          indexedMessages.id,
          d
            .select({ id: indexedRecipients.messageId })
            .from(indexedRecipients)
            .where(and(eq(indexedRecipients.projectId, projectId), eq(indexedRecipients.email, email))),
        ),
      );
    } else if (await findIndexedMessage(projectId, text)) {
      // A pasted id: that message alone, by primary key, not a substring scan.
      where.push(eq(indexedMessages.id, text));
    } else {
      const pattern = `%${escapeLike(text)}%`;
      where.push(or(ilike(indexedMessages.subject, pattern), ilike(indexedMessages.from, pattern))!);
    }
  }
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(${indexedMessages.createdAt}, ${indexedMessages.id}) < (${c.at.toISOString()}::timestamptz, ${c.id})`);
  }
  const query = d
    .select()
    .from(indexedMessages)
    .where(and(...where))
    .orderBy(desc(indexedMessages.createdAt), desc(indexedMessages.id))
    .limit(q.limit + 1);
  return { query, limit: q.limit };
}

export async function findIndexedMessage(projectId: string, id: string): Promise<IndexedMessageRow | null> {
  const [row] = await (await db())
    .select()
    .from(indexedMessages)
    .where(and(eq(indexedMessages.projectId, projectId), eq(indexedMessages.id, id)))
    .limit(1);
  return row ?? null;
}
