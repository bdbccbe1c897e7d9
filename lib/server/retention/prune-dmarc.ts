import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";

/**
 * DMARC aggregate reports under the index's retention: reports that arrived before the
 * cutoff (by received_at, the dashboard's own date; a report's begin/end dates are the
 * reporter's), their records first in slices of `batchSize` rows (a report holds up to
 * 10,000, too many for one short transaction by cascade), then the emptied reports; finished
 * jobs queued before it; and reverse-DNS names checked before it. Each slice is one statement.
 */
export type DmarcPruned = { dmarcRecords: number; dmarcReports: number; dmarcJobs: number; dmarcNames: number };
export type DmarcPruneKind = "dmarc_records" | "dmarc_reports" | "dmarc_jobs" | "dmarc_names";

export async function pruneDmarc(
  d: Db,
  cutoff: Date,
  batchSize: number,
  stopped: () => boolean,
  after: (what: DmarcPruneKind, removed: number) => Promise<void>,
): Promise<DmarcPruned> {
  const before = cutoff.toISOString();
  const out: DmarcPruned = { dmarcRecords: 0, dmarcReports: 0, dmarcJobs: 0, dmarcNames: 0 };
  const slices: [DmarcPruneKind, keyof DmarcPruned, ReturnType<typeof sql>][] = [
    [
      "dmarc_records",
      "dmarcRecords",
      sql`delete from dmarc_records where id in (
            select x.id from dmarc_reports r join dmarc_records x on x.report_id = r.id
             where r.received_at < ${before}::timestamptz limit ${batchSize}) returning 1`,
    ],
    ["dmarc_reports", "dmarcReports", sql`delete from dmarc_reports where id in (select id from dmarc_reports where received_at < ${before}::timestamptz limit ${batchSize}) returning 1`],
    [
      "dmarc_jobs",
      "dmarcJobs",
      // due_at is never before created_at, so its index finds the old ones; a job still waiting stays.
      sql`delete from dmarc_jobs where (project_id, message_id) in (
            select project_id, message_id from dmarc_jobs where due_at < ${before}::timestamptz and created_at < ${before}::timestamptz and outcome is not null limit ${batchSize}) returning 1`,
    ],
    ["dmarc_names", "dmarcNames", sql`delete from dmarc_source_names where ip in (select ip from dmarc_source_names where checked_at < ${before}::timestamptz limit ${batchSize}) returning 1`],
  ];
  for (const [kind, key, statement] of slices) {
    while (!stopped()) {
      const removed = rowsOf(await d.execute(statement)).length;
      if (!removed) break;
      out[key] += removed;
      await after(kind, removed);
    }
  }
  return out;
}
