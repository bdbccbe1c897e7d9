import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import type { ParsedReport } from "./parse";

/**
 * Stores a parsed report once: the report row is inserted with ON CONFLICT DO NOTHING on
 * (project, domain, reporter, report id), and its records only when that insert made the
 * row, in the same transaction, so a report sent again (or read by two instances at once)
 * is counted once.
 */
export async function storeReport(d: Db, projectId: string, messageId: string, report: ParsedReport): Promise<"stored" | "duplicate"> {
  return d.transaction(async (tx) => {
    const inserted = rowsOf(
      await tx.execute(sql`
        insert into dmarc_reports (id, project_id, domain, org_name, report_id, email, begin_at, end_at, policy, pct, message_id)
        values (${crypto.randomUUID()}, ${projectId}, ${report.domain}, ${report.orgName}, ${report.reportId}, ${report.email},
                ${report.begin.toISOString()}, ${report.end.toISOString()}, ${report.policy}, ${report.pct}, ${messageId})
        on conflict (project_id, domain, org_name, report_id) do nothing
        returning id`),
    );
    const id = inserted[0]?.id;
    if (id === undefined) return "duplicate";
    // One JSON document per 1,000 records (like the ingest's statements): no statement per record.
    for (let i = 0; i < report.records.length; i += 1000) {
      const doc = JSON.stringify(report.records.slice(i, i + 1000));
      await tx.execute(sql`
        insert into dmarc_records (report_id, source_ip, count, disposition, dkim_aligned, spf_aligned, header_from, envelope_from, dkim_domain, dkim_result, spf_domain, spf_result)
        select ${String(id)}, r."sourceIp", r.count, r.disposition, r."dkimAligned", r."spfAligned", r."headerFrom", r."envelopeFrom", r."dkimDomain", r."dkimResult", r."spfDomain", r."spfResult"
          from jsonb_to_recordset(${doc}::jsonb) as r("sourceIp" text, count int, disposition text, "dkimAligned" boolean, "spfAligned" boolean,
               "headerFrom" text, "envelopeFrom" text, "dkimDomain" text, "dkimResult" text, "spfDomain" text, "spfResult" text)`);
    }
    return "stored";
  });
}
