import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import { roomForReport, type DmarcCaps } from "./caps";
import { DMARC_LIMITS } from "./limits";
import type { ParsedReport } from "./parse";

export type Stored = { outcome: "stored" | "duplicate" } | { outcome: "skipped"; detail: string };

/**
 * Stores a parsed report once: the report row is inserted with ON CONFLICT DO NOTHING on
 * (project, domain, reporter, report id), and its records only when that insert made the
 * row, in the same transaction, so a report sent again (or read by two instances at once)
 * is counted once. A report over one of the caps (./caps.ts) is not stored: "skipped".
 */
export async function storeReport(d: Db, projectId: string, messageId: string, report: ParsedReport, caps: DmarcCaps = DMARC_LIMITS): Promise<Stored> {
  return d.transaction(async (tx) => {
    const seen = rowsOf(
      await tx.execute(sql`
        select 1 from dmarc_reports where project_id = ${projectId} and domain = ${report.domain} and org_name = ${report.orgName} and report_id = ${report.reportId}`),
    );
    if (seen.length) return { outcome: "duplicate" };
    const full = await roomForReport(tx, projectId, report.domain, report.records.length, caps);
    if (full) return { outcome: "skipped", detail: full };
    const inserted = rowsOf(
      await tx.execute(sql`
        insert into dmarc_reports (id, project_id, domain, org_name, report_id, email, begin_at, end_at, policy, pct, message_id, record_count)
        values (${crypto.randomUUID()}, ${projectId}, ${report.domain}, ${report.orgName}, ${report.reportId}, ${report.email},
                ${report.begin.toISOString()}, ${report.end.toISOString()}, ${report.policy}, ${report.pct}, ${messageId}, ${report.records.length})
        on conflict (project_id, domain, org_name, report_id) do nothing
        returning id`),
    );
    const id = inserted[0]?.id;
    if (id === undefined) return { outcome: "duplicate" };
    // One JSON document per 1,000 records (like the ingest's statements): no statement per record.
    for (let i = 0; i < report.records.length; i += 1000) {
      const doc = JSON.stringify(report.records.slice(i, i + 1000));
      await tx.execute(sql`
        insert into dmarc_records (report_id, source_ip, count, disposition, dkim_aligned, spf_aligned, header_from, envelope_from, dkim_domain, dkim_result, spf_domain, spf_result)
        select ${String(id)}, r."sourceIp", r.count, r.disposition, r."dkimAligned", r."spfAligned", r."headerFrom", r."envelopeFrom", r."dkimDomain", r."dkimResult", r."spfDomain", r."spfResult"
          from jsonb_to_recordset(${doc}::jsonb) as r("sourceIp" text, count int, disposition text, "dkimAligned" boolean, "spfAligned" boolean,
               "headerFrom" text, "envelopeFrom" text, "dkimDomain" text, "dkimResult" text, "spfDomain" text, "spfResult" text)`);
    }
    return { outcome: "stored" };
  });
}
