import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/server/db";
import { redactorFor } from "@/lib/server/redaction/redactor";
import { ERASED } from "./store";

type Row = { row: number; email: string; name: string | null; data: Record<string, string> };

/** A chunk's row whose address was erased, with the marker it is kept under. */
export type ErasedRow = { row: number; marker: string };

/**
 * A chunk's rows as they may go to the service now: the project's erasures are read again
 * right before each call, because the rows were read earlier (a worker reads its next chunk
 * while the last one is at the service) and an erasure under way marks the rows of its
 * address only after it has recorded the address (lib/server/retention/erase.ts). A row of
 * an erased address is left out; the others, and the job's shared content, lose any erased
 * address the erasure's scrub took out after they were read.
 */
export async function withoutErased<R extends Row, C>(d: Db, projectId: string, rows: R[], content: C): Promise<{ rows: R[]; content: C; erased: ErasedRow[] }> {
  const r = await d.transaction((tx) => redactorFor(tx, projectId));
  if (!r.active) return { rows, content, erased: [] };
  const kept: R[] = [];
  const erased: ErasedRow[] = [];
  for (const row of rows) {
    const marker = r.markerOf(row.email);
    if (marker) erased.push({ row: row.row, marker });
    else kept.push({ ...row, name: r.maybe(row.name), data: r.json(row.data) });
  }
  return { rows: kept, content: r.json(content), erased };
}

/** Leaves the erased rows as the erasure leaves them (its hash, no name or data, `invalid`/`erased`), in `tx`, unless it already did. */
export async function markErased(tx: Db, jobId: string, erased: ErasedRow[]): Promise<void> {
  if (!erased.length) return;
  const doc = JSON.stringify(erased.map((e) => ({ r: e.row, m: e.marker })));
  await tx.execute(sql`
    update batch_rows r set email = v.m, name = null, data = '{}'::jsonb, status = 'invalid', message_id = null,
           error_message = ${ERASED.message}, error_code = ${ERASED.code}, error_field = ${ERASED.field}
      from jsonb_to_recordset(${doc}::jsonb) as v(r int, m text)
     where r.job_id = ${jobId} and r.row = v.r and r.status in ('pending', 'failed')`);
}
