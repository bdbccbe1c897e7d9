import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import type { DmarcLimits } from "./limits";

/** The caps on stored reports (./limits.ts); tests narrow them to reach them cheaply. */
export type DmarcCaps = Pick<DmarcLimits, "reportsPerProject" | "reportsTotal" | "reportsPerDomainDay" | "recordsPerProject">;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The records a project's reports hold. `record_count` came with migration 0018 and reports
 * stored before it hold 0 there: a report holding 0 is counted from its rows instead (one
 * look-up on the records' index each, at most reportsPerProject of them; a report that truly
 * has no records counts 0 either way), so the cap holds for the older reports too.
 */
const RECORDS_HELD = sql.raw(`coalesce(sum(case when r.record_count > 0 then r.record_count
  else (select count(*) from dmarc_records c where c.report_id = r.id) end), 0)::bigint`);

const num = async (d: Db | Tx, q: ReturnType<typeof sql>) => Number(rowsOf(await d.execute(q))[0]?.n ?? 0);

/**
 * Checked before a report is downloaded: whether the project, and all projects together,
 * still have room for one more report. null when they do, else why not (the job's detail).
 * Each count reads an index (project_id first; the whole table is at most reportsTotal rows).
 */
export async function roomBeforeDownload(d: Db, projectId: string, caps: DmarcCaps): Promise<string | null> {
  const project = await num(d, sql`select count(*)::int as n from dmarc_reports where project_id = ${projectId}`);
  if (project >= caps.reportsPerProject) return `The project holds ${caps.reportsPerProject} DMARC reports, its cap; older ones make room as retention prunes them.`;
  const records = await num(d, sql`select ${RECORDS_HELD} as n from dmarc_reports r where r.project_id = ${projectId}`);
  if (records >= caps.recordsPerProject) return `The project's DMARC reports hold ${caps.recordsPerProject} records, its cap; older ones make room as retention prunes them.`;
  const total = await num(d, sql`select count(*)::int as n from dmarc_reports`);
  if (total >= caps.reportsTotal) return `The dashboard holds ${caps.reportsTotal} DMARC reports over all projects, its cap.`;
  return null;
}

/**
 * Checked once the report is parsed, in the transaction that stores it, under a lock of the
 * project (two instances storing at once cannot both take the last place): the reports of
 * its domain that arrived in the last 24 hours, the project's reports and records.
 */
export async function roomForReport(tx: Tx, projectId: string, domain: string, records: number, caps: DmarcCaps): Promise<string | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`dmarc-caps:${projectId}`}, 0))`);
  const today = await num(tx, sql`
    select count(*)::int as n from dmarc_reports
     where project_id = ${projectId} and domain = ${domain} and received_at > now() - interval '1 day'`);
  if (today >= caps.reportsPerDomainDay) return `${domain} received ${caps.reportsPerDomainDay} DMARC reports in the last 24 hours, its cap.`;
  const [held] = rowsOf(await tx.execute(sql`
    select count(*)::int as reports, ${RECORDS_HELD} as records from dmarc_reports r where r.project_id = ${projectId}`));
  if (Number(held?.reports ?? 0) >= caps.reportsPerProject) return `The project holds ${caps.reportsPerProject} DMARC reports, its cap; older ones make room as retention prunes them.`;
  if (Number(held?.records ?? 0) + records > caps.recordsPerProject) return `The report's ${records} records would take the project's DMARC records past ${caps.recordsPerProject}, its cap.`;
  return null;
}
