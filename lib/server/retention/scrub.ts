import "server-only";
import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "@/lib/db-rows";
import type { Db } from "@/lib/server/db";
import { batchJobs } from "@/lib/server/db/schema/batches";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { invalidateMessage } from "@/lib/server/messages/read";
import { redactedMessage } from "@/lib/server/messages/redacted";
import { addressAnchors, addressForms, type AddressAnchor } from "./address-matcher";
import type { Redactor } from "./redactor";

/**
 * The erasure's second pass: the address wherever it is still written in the project's
 * records after the messages that name it as a party were removed or stripped — subjects,
 * bodies, headers, tags and merge data of every kept message (the sender's own name on its
 * mail included), event details, other batch rows' names, merge data and reasons, batch
 * jobs' file names and shared content, other contacts' names and metadata — written plainly
 * or escaped, replaced by its keyed hash. Rows are found by a cheap test that passes every
 * text naming the address in a form the matcher finds (mentions) and read, locked
 * and written a page at a time, so a big project is scanned once without holding much at once.
 * Writers that come later redact the address themselves (./redactor.ts).
 */
const PAGE = 200;

/**
 * `text` may name the address, in any form the matcher finds (written plainly or escaped): it
 * holds the anchors of one of its forms (addressAnchors); or an `@` escaped once or twice; or
 * one anchor and an escape of any kind (`&#101;rase-me@example.com`). A superset of what the
 * redactor changes, tested where the rows are: only the rows that pass are read and redacted.
 * What it misses: the letters of both runs escaped around a plain `@` (README, "Erasure").
 */
export function mentions(text: SQL, anchors: AddressAnchor[]): SQL {
  const list = JSON.stringify(anchors.map((a) => ({ l: a.local, d: a.domain })));
  return sql`(${text} ~* ${ESCAPED_AT} or exists (
    select 1 from jsonb_to_recordset(${list}::jsonb) as a(l text, d text)
     where (${text} ilike '%' || a.l || '%' and ${text} ilike '%' || a.d || '%')
        or ((${text} ilike '%' || a.l || '%' or ${text} ilike '%' || a.d || '%') and ${text} ~* ${ANY_ESCAPE})))`;
}

/** An `@` escaped once or twice: `&#64;`, `&#x40;`, `&commat;`, `%40`, `=40`, `%2540`, `&#37;40`, `&amp;#64;`, `%26%2364;`… */
const ESCAPED_AT = String.raw`&(amp;)?(#(x0*40|0*64)|commat)|%(25)?40|=40|&(#(x0*25|0*37)|percnt);?40|%26(%23(x0*40|0*64)|commat)`;
/** The start of any escape the matcher decodes (./decoded-text.ts). */
const ANY_ESCAPE = String.raw`&#?[a-z0-9]|%[0-9a-f]{2}|=[0-9a-f]{2}|=\r?\n`;

const parsed = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function scrubProject(d: Db, projectId: string, address: string, r: Redactor): Promise<number> {
  // Addresses in a form the erasure's exact match missed (Unicode, IDN): their recipient rows.
  await d.delete(indexedRecipients).where(and(eq(indexedRecipients.projectId, projectId), inArray(indexedRecipients.email, addressForms(address))));
  const anchors = addressAnchors(address);
  let changed = 0;
  for (const scrub of [scrubMessages, scrubEvents, scrubBatchRows, scrubBatchJobs, scrubContacts]) changed += await scrub(d, projectId, anchors, r);
  return changed;
}

async function scrubMessages(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const m = indexedMessages;
  const blob = sql`concat_ws(' ', ${m.from}, ${m.to}::text, ${m.cc}::text, ${m.bcc}::text, ${m.subject}, ${m.html}, ${m.text}, ${m.headers}::text, ${m.tags}::text, ${m.templateData}::text)`;
  let after = "";
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const rows = await tx
        .select({ id: m.id, from: m.from, to: m.to, cc: m.cc, bcc: m.bcc, subject: m.subject, html: m.html, text: m.text, headers: m.headers, tags: m.tags, templateData: m.templateData })
        .from(m)
        .where(and(eq(m.projectId, projectId), gt(m.id, after), mentions(blob, anchors)))
        .orderBy(asc(m.id))
        .limit(PAGE)
        .for("update");
      const ids: string[] = [];
      for (const row of rows) {
        const clean = redactedMessage(row, r);
        if (same(clean, row)) continue;
        await tx.update(m).set({ ...clean, updatedAt: new Date() }).where(eq(m.id, row.id));
        ids.push(row.id);
      }
      await markInsightDirty(tx, projectId, ids);
      return { last: rows.at(-1)?.id, full: rows.length === PAGE, ids };
    });
    for (const id of page.ids) invalidateMessage(projectId, id);
    changed += page.ids.length;
    if (!page.full || page.last === undefined) return changed;
    after = page.last;
  }
}

async function scrubEvents(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const e = indexedEvents;
  let after = 0;
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const rows = await tx
        .select({ seq: e.seq, data: e.data })
        .from(e)
        .where(and(eq(e.projectId, projectId), gt(e.seq, after), mentions(sql`${e.data}::text`, anchors)))
        .orderBy(asc(e.seq))
        .limit(PAGE)
        .for("update");
      let n = 0;
      for (const row of rows) {
        const data = r.json(row.data);
        if (same(data, row.data)) continue;
        await tx.update(e).set({ data }).where(eq(e.seq, row.seq));
        n++;
      }
      return { last: rows.at(-1)?.seq, full: rows.length === PAGE, n };
    });
    changed += page.n;
    if (!page.full || page.last === undefined) return changed;
    after = page.last;
  }
}

type BatchRow = { job_id: string; row: number; name: string | null; data: unknown; error_message: string | null };

async function scrubBatchRows(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  let after: { job: string; row: number } = { job: "", row: 0 };
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const rows = rowsOf<BatchRow>(
        await tx.execute(sql`
          select r.job_id, r.row, r.name, r.data, r.error_message from batch_rows r
            join batch_jobs j on j.id = r.job_id
           where j.project_id = ${projectId} and (r.job_id, r.row) > (${after.job}, ${after.row})
             and ${mentions(sql`concat_ws(' ', r.name, r.data::text, r.error_message)`, anchors)}
           order by r.job_id, r.row
           limit ${PAGE}
           for update of r`),
      );
      let n = 0;
      for (const row of rows) {
        const before = { name: row.name, data: parsed<Record<string, string>>(row.data), errorMessage: row.error_message };
        const clean = { name: r.maybe(before.name), data: r.json(before.data), errorMessage: r.maybe(before.errorMessage) };
        if (same(clean, before)) continue;
        await tx.execute(sql`
          update batch_rows set name = ${clean.name}, data = ${JSON.stringify(clean.data)}::jsonb, error_message = ${clean.errorMessage}
           where job_id = ${row.job_id} and row = ${row.row}`);
        n++;
      }
      const last = rows.at(-1);
      return { last: last && { job: last.job_id, row: Number(last.row) }, full: rows.length === PAGE, n };
    });
    changed += page.n;
    if (!page.full || !page.last) return changed;
    after = page.last;
  }
}

/** A job's file name and shared content (subject, bodies, merge data) — what every row of it is sent with. */
async function scrubBatchJobs(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const j = batchJobs;
  let after = "";
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const rows = await tx
        .select({ id: j.id, fileName: j.fileName, content: j.content })
        .from(j)
        .where(and(eq(j.projectId, projectId), gt(j.id, after), mentions(sql`concat_ws(' ', ${j.fileName}, ${j.content}::text)`, anchors)))
        .orderBy(asc(j.id))
        .limit(PAGE)
        .for("update");
      let n = 0;
      for (const row of rows) {
        const clean = { fileName: r.maybe(row.fileName), content: r.json(row.content) };
        if (same(clean, { fileName: row.fileName, content: row.content })) continue;
        await tx.update(j).set(clean).where(eq(j.id, row.id));
        n++;
      }
      return { last: rows.at(-1)?.id, full: rows.length === PAGE, n };
    });
    changed += page.n;
    if (!page.full || page.last === undefined) return changed;
    after = page.last;
  }
}

async function scrubContacts(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const c = contactsIndex;
  let after = "";
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const rows = await tx
        .select({ id: c.id, firstName: c.firstName, lastName: c.lastName, metadata: c.metadata })
        .from(c)
        .where(and(eq(c.projectId, projectId), gt(c.id, after), mentions(sql`concat_ws(' ', ${c.firstName}, ${c.lastName}, ${c.metadata}::text)`, anchors)))
        .orderBy(asc(c.id))
        .limit(PAGE)
        .for("update");
      let n = 0;
      for (const row of rows) {
        const clean = { firstName: r.maybe(row.firstName), lastName: r.maybe(row.lastName), metadata: r.json(row.metadata) };
        if (same(clean, { firstName: row.firstName, lastName: row.lastName, metadata: row.metadata })) continue;
        await tx.update(c).set(clean).where(and(eq(c.projectId, projectId), eq(c.id, row.id)));
        n++;
      }
      return { last: rows.at(-1)?.id, full: rows.length === PAGE, n };
    });
    changed += page.n;
    if (!page.full || page.last === undefined) return changed;
    after = page.last;
  }
}
