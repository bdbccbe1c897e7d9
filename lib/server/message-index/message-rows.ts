import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import { textArray } from "@/lib/server/db/arrays";
import { erasedWholeSql } from "./tombstones";
import type { Picture } from "./event-picture";

/* The statements here carry their rows as one JSON document, as in ./event-rows.ts: one statement text whatever the batch's size. */

/** Inserts the messages the index does not have; the ones created, as `project\u0000id`, with whether an erasure removed them. */
export async function insertMessages(tx: Db, candidates: { g: { projectId: string; messageId: string }; direction: string; picture: Picture }[]): Promise<Map<string, boolean>> {
  const created = new Map<string, boolean>();
  for (let i = 0; i < candidates.length; i += 1000) {
    const doc = candidates.slice(i, i + 1000).map(({ g, direction, picture: p }) => ({
      id: g.messageId,
      p: g.projectId,
      dir: direction,
      st: p.status,
      f: p.from,
      to: p.to,
      s: p.subject,
      h: p.html,
      tx: p.text,
      c: p.createdAt.toISOString(),
      l: p.lastEventAt?.toISOString() ?? null,
    }));
    const rows = rowsOf<{ id: string; project_id: string; erased: boolean }>(
      await tx.execute(sql`
        with created as (
          insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, subject, html, text, source, created_at, last_event_at)
          select x.id, x.p, x.dir, x.st, x.f, x.to, x.s, x.h, x.tx, 'webhook', x.c::timestamptz, x.l::timestamptz
            from jsonb_to_recordset(${JSON.stringify(doc)}::jsonb)
              as x(id text, p text, dir text, st text, f text, "to" jsonb, s text, h text, tx text, c text, l text)
          on conflict (id) do nothing
          returning id, project_id)
        select c.id, c.project_id, ${erasedWholeSql(sql`c.project_id`, sql`c.id`)} as erased from created c`),
    );
    for (const r of rows) created.set(`${r.project_id}\u0000${r.id}`, r.erased);
  }
  return created;
}

/** The messages' rows, locked in id order (so two transactions never wait on each other in a circle). */
export async function lockMessages(tx: Db, ids: string[]): Promise<Map<string, { projectId: string; status: string; from: string; to: string[] }>> {
  const current = new Map<string, { projectId: string; status: string; from: string; to: string[] }>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = rowsOf<{ id: string; project_id: string; status: string; from_address: string; to_addresses: string[] | string }>(
      await tx.execute(sql`
        select id, project_id, status, from_address, to_addresses from indexed_messages
         where id = any(${textArray(ids.slice(i, i + 1000))}::text[])
         order by id for update`),
    );
    for (const r of rows) {
      const to = typeof r.to_addresses === "string" ? (JSON.parse(r.to_addresses) as string[]) : r.to_addresses;
      current.set(r.id, { projectId: r.project_id, status: r.status, from: r.from_address, to });
    }
  }
  return current;
}

/** A message's row after its events, as updateMessages writes it. */
export type MessageUpdate = { id: string; p: string; st: string; f: string; to: string[]; s: string | null; h: string | null; tx: string | null; c: string | null; l: string | null; u: boolean };

/** The rows are reached through the primary key by their ids as an array (./arrays.ts), then joined to their new values. */
export async function updateMessages(tx: Db, updates: MessageUpdate[]): Promise<void> {
  for (let i = 0; i < updates.length; i += 1000) {
    const slice = updates.slice(i, i + 1000);
    await tx.execute(sql`
      update indexed_messages as m set
        status = v.st,
        from_address = v.f,
        to_addresses = v.to,
        subject = coalesce(m.subject, v.s),
        html = coalesce(m.html, v.h),
        text = coalesce(m.text, v.tx),
        created_at = least(m.created_at, v.c::timestamptz),
        last_event_at = greatest(m.last_event_at, v.l::timestamptz, case when v.u then now() end),
        updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(slice)}::jsonb)
        as v(id text, p text, st text, f text, "to" jsonb, s text, h text, tx text, c text, l text, u boolean)
      where m.id = any(${textArray(slice.map((u) => u.id))}::text[]) and m.id = v.id and m.project_id = v.p`);
  }
}
