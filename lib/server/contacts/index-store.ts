import "server-only";
import { and, desc, eq, getTableColumns, ilike, inArray, or, sql } from "drizzle-orm";
import type { Contact } from "@/lib/schemas/contacts";
import { db, type Db } from "@/lib/server/db";
import { contactsIndex, type ContactIndexRow } from "@/lib/server/db/schema/contacts-index";
import { redactorFor } from "@/lib/server/redaction/redactor";

/**
 * Remembers a contact as the service just returned it. Newer facts replace older ones. A
 * contact whose address was erased in the project is not remembered (and an earlier row of
 * it goes); others lose any erased address from their names and metadata.
 */
export async function rememberContacts(projectId: string, list: Contact[], source: "created" | "lookup" | "import"): Promise<void> {
  if (!list.length) return;
  await (await db()).transaction(async (tx) => {
    const r = await redactorFor(tx, projectId);
    const erased = list.filter((c) => r.markerOf(c.email) !== null).map((c) => c.id);
    if (erased.length) await tx.delete(contactsIndex).where(and(eq(contactsIndex.projectId, projectId), inArray(contactsIndex.id, erased)));
    const now = new Date();
    const rows = list
      .filter((c) => r.markerOf(c.email) === null)
      .map((c) => ({
        projectId,
        id: c.id,
        email: c.email.toLowerCase(),
        firstName: r.maybe(c.firstName),
        lastName: r.maybe(c.lastName),
        subscribed: c.subscribed,
        unsubscribedAt: c.unsubscribedAt ? new Date(c.unsubscribedAt) : null,
        metadata: r.json(c.metadata ?? {}),
        source,
        createdAt: new Date(c.createdAt),
        seenAt: now,
      }));
    if (rows.length) await upsertContacts(tx, rows);
  });
}

async function upsertContacts(tx: Db, rows: (typeof contactsIndex.$inferInsert)[]): Promise<void> {
  await tx
    .insert(contactsIndex)
    .values(rows)
    .onConflictDoUpdate({
      target: [contactsIndex.projectId, contactsIndex.id],
      set: {
        email: sql`excluded.email`,
        firstName: sql`excluded.first_name`,
        lastName: sql`excluded.last_name`,
        subscribed: sql`excluded.subscribed`,
        unsubscribedAt: sql`excluded.unsubscribed_at`,
        metadata: sql`excluded.metadata`,
        seenAt: sql`excluded.seen_at`,
      },
    });
}

export type IndexedContact = Omit<ContactIndexRow, "unsubscribedAt" | "createdAt" | "seenAt"> & { unsubscribedAt: string | null; createdAt: string; seenAt: string };

const view = (r: ContactIndexRow): IndexedContact => ({
  ...r,
  unsubscribedAt: r.unsubscribedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  seenAt: r.seenAt.toISOString(),
});

/** The contacts the dashboard knows of, newest seen first, searched by address or name. */
function searchCondition(projectId: string, q: string) {
  const needle = q.trim() ? `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return and(
    eq(contactsIndex.projectId, projectId),
    needle ? or(ilike(contactsIndex.email, needle), ilike(contactsIndex.firstName, needle), ilike(contactsIndex.lastName, needle), eq(contactsIndex.id, q.trim())) : undefined,
  );
}

export async function searchContactsIndex(projectId: string, q: string, limit = 50, offset = 0): Promise<{ data: IndexedContact[]; total: number }> {
  const d = await db();
  const where = searchCondition(projectId, q);
  const [rows, [{ total }]] = await Promise.all([
    d.select().from(contactsIndex).where(where).orderBy(desc(contactsIndex.seenAt), desc(contactsIndex.id)).limit(limit).offset(offset),
    d.select({ total: sql<number>`count(*)::int` }).from(contactsIndex).where(where),
  ]);
  return { data: rows.map(view), total };
}

/** A contact id for an address, when the dashboard has seen one (the interface cannot look up by email). */
export async function contactIdByEmail(projectId: string, email: string): Promise<string | null> {
  const d = await db();
  const [row] = await d
    .select({ id: contactsIndex.id })
    .from(contactsIndex)
    .where(and(eq(contactsIndex.projectId, projectId), eq(contactsIndex.email, email.trim().toLowerCase())))
    .orderBy(desc(contactsIndex.seenAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The same search in the same order, one keyset page after `after` (the last row's seen_at as
 * the database wrote it, to the microsecond, and its id): an export reads every page without OFFSET.
 */
export async function searchContactsAfter(
  projectId: string,
  q: string,
  limit: number,
  after?: { seenAt: string; id: string },
): Promise<{ data: IndexedContact[]; after: { seenAt: string; id: string } | null }> {
  const rows = await (await db())
    .select({ ...getTableColumns(contactsIndex), exactSeenAt: sql<string>`${contactsIndex.seenAt}::text` })
    .from(contactsIndex)
    .where(and(searchCondition(projectId, q), after ? sql`(${contactsIndex.seenAt}, ${contactsIndex.id}) < (${after.seenAt}::timestamptz, ${after.id})` : undefined))
    .orderBy(desc(contactsIndex.seenAt), desc(contactsIndex.id))
    .limit(limit);
  const last = rows.at(-1);
  return { data: rows.map(({ exactSeenAt: _, ...r }) => view(r)), after: rows.length === limit && last ? { seenAt: last.exactSeenAt, id: last.id } : null };
}
