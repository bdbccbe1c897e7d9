import { and, desc, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { badRequest } from "./errors";

/**
 * Cursors are opaque to clients: base64url of the sort key of the last row of a page.
 * Most lists sort by id (ids sort by creation time), newest first, which is stable
 * across pages even while new rows arrive.
 */
export function encodeCursor(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

const ID_PATTERN = /^[a-z]+_[0-9a-z]{10,}$/;

export function decodeCursor(cursor: string | undefined, isValid: (key: string) => boolean = (k) => ID_PATTERN.test(k)): string | null {
  if (!cursor) return null;
  const key = Buffer.from(cursor, "base64url").toString("utf8");
  if (!isValid(key)) throw badRequest("cursor: is not a cursor returned by this list", "cursor");
  return key;
}

/** Given limit+1 rows fetched, the page and the cursor of the next one. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => string) {
  const data = rows.slice(0, limit);
  const nextCursor = rows.length > limit && data.length ? encodeCursor(keyOf(data[data.length - 1])) : null;
  return { data, nextCursor };
}

/**
 * One page of a list sorted by id, newest first: `where` holds the list's own conditions
 * (its project, its filters); the cursor's condition and the limit+1 fetch are added here.
 */
export async function pageById<T extends PgTable & { id: PgColumn }>(
  db: Db, table: T, query: { limit: number; cursor?: string }, ...where: (SQL | undefined)[]
) {
  const after = decodeCursor(query.cursor);
  const rows: T["$inferSelect"][] = await db.select().from(table as PgTable)
    .where(and(...where, after ? lt(table.id, after) : undefined))
    .orderBy(desc(table.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, (r) => r.id as string);
}
