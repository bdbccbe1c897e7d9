import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import { batchJobs } from "@/lib/server/db/schema/batches";
import { contactsIndex } from "@/lib/server/db/schema/contacts-index";
import { auditLog } from "@/lib/server/db/schema/core";
import { indexedEvents, indexedMessages, indexedRecipients } from "@/lib/server/db/schema/messages";
import { markInsightDirty } from "@/lib/server/insight/dirty";
import { invalidateMessage } from "@/lib/server/message-index/read";
import { redactedMessage } from "@/lib/server/message-index/redacted";
import { addressAnchors, addressForms, type AddressAnchor } from "@/lib/server/redaction/address-matcher";
import type { Redactor } from "@/lib/server/redaction/redactor";

/**
 * The erasure's second pass: the address wherever it is still written in the project's
 * records after the messages that name it as a party were removed or stripped — subjects,
 * bodies, headers, tags and merge data of every kept message (the sender's own name on its
 * mail included), event details, other batch rows' names, merge data and reasons, batch
 * jobs' file names and shared content, other contacts' names and metadata — written plainly
 * or escaped, replaced by its keyed hash. Rows are found by a cheap test that passes every
 * text naming the address in a form the matcher finds (mentions) and read, locked and written
 * a page at a time, so a big project is scanned once without holding much at once.
 * Writers that come later redact the address themselves (lib/server/redaction/redactor.ts).
 *
 * The cheap test passes much that does not name the address (any `=40` or `%40`: `width=400`),
 * and a row can be megabytes (an inbound message's html), so a page is bounded twice: at most
 * PAGE rows and PAGE_BYTES of the text the test read (its candidates' keys and sizes are read
 * and locked first, then only the rows that fit are loaded) — always one row at least, so one
 * row larger than PAGE_BYTES is a page of its own. Its bound is the largest row the index
 * holds (a message: the service's 20 MB; redacting 20 MB takes about 0.6 s), redacted whole:
 * a match may span any cut. Between two rows the loop gives the event loop a turn, so other
 * requests are answered during a scrub of thousands of rows.
 */
const PAGE = 200;
export const PAGE_BYTES = 16 * 1024 * 1024;

/** The largest page a scrub of this process loaded (bytes of text, rows) and how many: what the bounds hold to. */
export const scrubMeter = { pages: 0, largestPageBytes: 0, largestPageRows: 0 };

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
/** The start of any escape the matcher decodes (lib/server/redaction/decoded-text.ts). */
const ANY_ESCAPE = String.raw`&#?[a-z0-9]|%[0-9a-f]{2}|=[0-9a-f]{2}|=\r?\n`;

const parsed = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Candidate<K> = { key: K; bytes: number };

/** One table's part of the pass. */
type Pass<K, R> = {
  /** The key before every row's. */
  start: K;
  /** The next rows after `after` the cheap test passes, in key order, at most PAGE, locked: their keys and the bytes of their text. */
  candidates: (tx: Db, after: K) => Promise<Candidate<K>[]>;
  /** Those rows (already locked), with the columns that can name the address. */
  load: (tx: Db, keys: K[]) => Promise<R[]>;
  /** Writes the row redacted when that changes it: whether it did. */
  redact: (tx: Db, row: R) => Promise<boolean>;
  keyOf: (row: R) => K;
  /** In the page's transaction, with the keys of the rows it changed. */
  afterPage?: (tx: Db, changed: K[]) => Promise<void>;
  /** Once the page is committed. */
  committed?: (changed: K[]) => void;
};

/** The candidates of a table keyed by one column: its rows in `scope` after `after` that `blob` may name the address in. */
function keyedCandidates<K extends string | number>(key: PgColumn, scope: SQL | undefined, blob: SQL, anchors: AddressAnchor[]) {
  return (tx: Db, after: K): Promise<Candidate<K>[]> =>
    tx
      .select({ key, bytes: sql<number>`octet_length(${blob})` })
      .from(key.table)
      .where(and(scope, gt(key, after), mentions(blob, anchors)))
      .orderBy(asc(key))
      .limit(PAGE)
      .for("update") as Promise<Candidate<K>[]>;
}

/** The first candidates that fit in `maxBytes` together, one at least. */
export function pageOf<K>(candidates: readonly Candidate<K>[], maxBytes = PAGE_BYTES): Candidate<K>[] {
  let bytes = 0;
  let n = 0;
  while (n < candidates.length && (n === 0 || bytes + candidates[n].bytes <= maxBytes)) bytes += candidates[n++].bytes;
  return candidates.slice(0, n);
}

async function scrubTable<K, R>(d: Db, p: Pass<K, R>): Promise<number> {
  let after = p.start;
  let changed = 0;
  for (;;) {
    const page = await d.transaction(async (tx) => {
      const found = (await p.candidates(tx, after)).map((c) => ({ key: c.key, bytes: Number(c.bytes) || 0 }));
      const chosen = pageOf(found);
      if (!chosen.length) return null;
      const bytes = chosen.reduce((sum, c) => sum + c.bytes, 0);
      scrubMeter.pages++;
      if (bytes > scrubMeter.largestPageBytes) Object.assign(scrubMeter, { largestPageBytes: bytes, largestPageRows: chosen.length });
      const rows = await p.load(tx, chosen.map((c) => c.key));
      const keys: K[] = [];
      for (const row of rows) {
        // Redacting is synchronous work on the request thread: other requests run between rows.
        await nextTurn();
        if (await p.redact(tx, row)) keys.push(p.keyOf(row));
      }
      await p.afterPage?.(tx, keys);
      return { last: chosen.at(-1)!.key, more: found.length === PAGE || chosen.length < found.length, keys };
    });
    if (!page) return changed;
    p.committed?.(page.keys);
    changed += page.keys.length;
    if (!page.more) return changed;
    after = page.last;
  }
}

export async function scrubProject(d: Db, projectId: string, address: string, r: Redactor): Promise<number> {
  // Addresses in a form the erasure's exact match missed (Unicode, IDN): their recipient rows.
  await d.delete(indexedRecipients).where(and(eq(indexedRecipients.projectId, projectId), inArray(indexedRecipients.email, addressForms(address))));
  const anchors = addressAnchors(address);
  let changed = 0;
  for (const scrub of [scrubMessages, scrubEvents, scrubBatchRows, scrubBatchJobs, scrubContacts]) changed += await scrub(d, projectId, anchors, r);
  return changed;
}

function scrubMessages(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const m = indexedMessages;
  const blob = sql`concat_ws(' ', ${m.from}, ${m.to}::text, ${m.cc}::text, ${m.bcc}::text, ${m.subject}, ${m.html}, ${m.text}, ${m.headers}::text, ${m.tags}::text, ${m.templateData}::text)`;
  return scrubTable<string, MessageRow>(d, {
    start: "",
    candidates: keyedCandidates(m.id, eq(m.projectId, projectId), blob, anchors),
    load: (tx, ids) =>
      tx
        .select({ id: m.id, from: m.from, to: m.to, cc: m.cc, bcc: m.bcc, subject: m.subject, html: m.html, text: m.text, headers: m.headers, tags: m.tags, templateData: m.templateData })
        .from(m)
        .where(and(eq(m.projectId, projectId), inArray(m.id, ids)))
        .orderBy(asc(m.id)),
    redact: async (tx, row) => {
      const clean = redactedMessage(row, r);
      if (same(clean, row)) return false;
      await tx.update(m).set({ ...clean, updatedAt: new Date() }).where(eq(m.id, row.id));
      return true;
    },
    keyOf: (row) => row.id,
    afterPage: (tx, ids) => markInsightDirty(tx, projectId, ids),
    committed: (ids) => ids.forEach((id) => invalidateMessage(projectId, id)),
  });
}
type MessageRow = Pick<typeof indexedMessages.$inferSelect, "id" | "from" | "to" | "cc" | "bcc" | "subject" | "html" | "text" | "headers" | "tags" | "templateData">;

function scrubEvents(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const e = indexedEvents;
  return scrubTable<number, Pick<typeof indexedEvents.$inferSelect, "seq" | "data">>(d, {
    start: 0,
    candidates: keyedCandidates(e.seq, eq(e.projectId, projectId), sql`${e.data}::text`, anchors),
    load: (tx, seqs) => tx.select({ seq: e.seq, data: e.data }).from(e).where(and(eq(e.projectId, projectId), inArray(e.seq, seqs))).orderBy(asc(e.seq)),
    redact: async (tx, row) => {
      const data = r.json(row.data);
      if (same(data, row.data)) return false;
      await tx.update(e).set({ data }).where(eq(e.seq, row.seq));
      return true;
    },
    keyOf: (row) => row.seq,
  });
}

type RowKey = { job: string; row: number };
type BatchRow = { job_id: string; row: number; name: string | null; data: unknown; error_message: string | null };

function scrubBatchRows(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  return scrubTable<RowKey, BatchRow>(d, {
    start: { job: "", row: 0 },
    candidates: async (tx, after) =>
      rowsOf<{ job: string; row: number; bytes: number }>(
        await tx.execute(sql`
          select r.job_id as job, r.row, octet_length(concat_ws(' ', r.name, r.data::text, r.error_message)) as bytes from batch_rows r
            join batch_jobs j on j.id = r.job_id
           where j.project_id = ${projectId} and (r.job_id, r.row) > (${after.job}, ${after.row})
             and ${mentions(sql`concat_ws(' ', r.name, r.data::text, r.error_message)`, anchors)}
           order by r.job_id, r.row
           limit ${PAGE}
           for update of r`),
      ).map((c) => ({ key: { job: c.job, row: Number(c.row) }, bytes: c.bytes })),
    load: async (tx, keys) =>
      rowsOf<BatchRow>(
        await tx.execute(sql`
          select r.job_id, r.row, r.name, r.data, r.error_message from batch_rows r
           where (r.job_id, r.row) in (${sql.join(keys.map((k) => sql`(${k.job}, ${k.row}::int)`), sql`, `)})
           order by r.job_id, r.row`),
      ),
    redact: async (tx, row) => {
      const before = { name: row.name, data: parsed<Record<string, string>>(row.data), errorMessage: row.error_message };
      const clean = { name: r.maybe(before.name), data: r.json(before.data), errorMessage: r.maybe(before.errorMessage) };
      if (same(clean, before)) return false;
      await tx.execute(sql`
        update batch_rows set name = ${clean.name}, data = ${JSON.stringify(clean.data)}::jsonb, error_message = ${clean.errorMessage}
         where job_id = ${row.job_id} and row = ${row.row}`);
      return true;
    },
    keyOf: (row) => ({ job: row.job_id, row: Number(row.row) }),
  });
}

/**
 * A table keyed by a text `id` whose listed columns may name the address: `text` ones redacted
 * as text, `json` ones as JSON. `scope` keeps every read and write to the project's rows.
 */
function scrubById(
  d: Db,
  id: PgColumn,
  scope: SQL,
  columns: { text: Record<string, PgColumn>; json: Record<string, PgColumn> },
  anchors: AddressAnchor[],
  r: Redactor,
): Promise<number> {
  const text = Object.keys(columns.text);
  const json = Object.keys(columns.json);
  const all = { ...columns.text, ...columns.json };
  const blob = sql`concat_ws(' ', ${sql.join([...Object.values(columns.text).map((c) => sql`${c}`), ...Object.values(columns.json).map((c) => sql`${c}::text`)], sql`, `)})`;
  const table = id.table as PgTable;
  type Row = Record<string, unknown> & { id: string };
  return scrubTable<string, Row>(d, {
    start: "",
    candidates: keyedCandidates(id, scope, blob, anchors),
    load: (tx, ids) => tx.select({ id, ...all }).from(table).where(and(scope, inArray(id, ids))).orderBy(asc(id)) as Promise<Row[]>,
    redact: async (tx, row) => {
      const before = Object.fromEntries([...text, ...json].map((c) => [c, row[c]]));
      const clean = Object.fromEntries([...text.map((c) => [c, r.maybe(row[c] as string | null)]), ...json.map((c) => [c, r.json(row[c])])]);
      if (same(clean, before)) return false;
      await tx.update(table).set(clean).where(and(scope, eq(id, row.id)));
      return true;
    },
    keyOf: (row) => row.id,
  });
}

/** A job's file name and shared content (subject, bodies, merge data) — what every row of it is sent with. */
function scrubBatchJobs(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const j = batchJobs;
  return scrubById(d, j.id, eq(j.projectId, projectId), { text: { fileName: j.fileName }, json: { content: j.content } }, anchors, r);
}

function scrubContacts(d: Db, projectId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const c = contactsIndex;
  return scrubById(d, c.id, eq(c.projectId, projectId), { text: { firstName: c.firstName, lastName: c.lastName }, json: { metadata: c.metadata } }, anchors, r);
}

/** The address in earlier audit entries of the project (target or detail) becomes its hash: paged as the rest. */
export function scrubAudit(d: Db, projectExternalId: string, anchors: AddressAnchor[], r: Redactor): Promise<number> {
  const a = auditLog;
  return scrubById(d, a.id, eq(a.project, projectExternalId), { text: { target: a.target }, json: { detail: a.detail } }, anchors, r);
}
