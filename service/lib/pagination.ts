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
