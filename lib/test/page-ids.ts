/**
 * Test-only: the ids of every page of a cursor-paged list, in order, read one page at a time
 * from `page(cursor)` until a page has no next cursor. More than 20 pages is a failure (the
 * tests' lists are shorter: a cursor that never ends would loop).
 */
export async function allPageIds(page: (cursor: string | undefined) => Promise<{ data: { id: string }[]; nextCursor?: string | null }>): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const { data, nextCursor } = await page(cursor);
    found.push(...data.map((m) => m.id));
    if (!nextCursor) return found;
    cursor = nextCursor;
  }
  throw new Error("more pages than messages");
}
