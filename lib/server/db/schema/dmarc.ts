import { bigserial, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, generatedId, leaseColumns } from "./columns";
import { projectIdColumn } from "./core";

/**
 * DMARC aggregate reports (issue 30): one row per report, stored once per project, domain,
 * reporter and report id, so a report sent again is not counted twice. Bounds:
 * lib/server/dmarc/limits.ts.
 */
export const dmarcReports = pgTable(
  "dmarc_reports",
  {
    id: generatedId(),
    projectId: projectIdColumn(),
    /** policy_published.domain, lower case. */
    domain: text("domain").notNull(),
    orgName: text("org_name").notNull(),
    reportId: text("report_id").notNull(),
    email: text("email"),
    beginAt: at("begin_at").notNull(),
    endAt: at("end_at").notNull(),
    /** The policy the receiver saw published (p=) and its pct. */
    policy: text("policy"),
    pct: integer("pct"),
    /** The inbound message it came in. */
    messageId: text("message_id").notNull(),
    /** How many <record>s it holds: the cap on records per project sums this, never the records. */
    recordCount: integer("record_count").notNull().default(0),
    receivedAt: at("received_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("dmarc_reports_once_idx").on(t.projectId, t.domain, t.orgName, t.reportId),
    index("dmarc_reports_domain_idx").on(t.projectId, t.domain, t.beginAt),
    // The cap per domain and day counts by arrival; retention prunes by it too.
    index("dmarc_reports_arrival_idx").on(t.projectId, t.domain, t.receivedAt),
    index("dmarc_reports_received_idx").on(t.receivedAt),
  ],
);

/** One <record> of a report: a source address and what the receiver saw from it. */
export const dmarcRecords = pgTable(
  "dmarc_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    reportId: text("report_id").notNull().references(() => dmarcReports.id, { onDelete: "cascade" }),
    sourceIp: text("source_ip").notNull(),
    count: integer("count").notNull(),
    disposition: text("disposition").notNull(),
    dkimAligned: boolean("dkim_aligned").notNull(),
    spfAligned: boolean("spf_aligned").notNull(),
    headerFrom: text("header_from"),
    envelopeFrom: text("envelope_from"),
    dkimDomain: text("dkim_domain"),
    dkimResult: text("dkim_result"),
    spfDomain: text("spf_domain"),
    spfResult: text("spf_result"),
  },
  (t) => [index("dmarc_records_report_idx").on(t.reportId)],
);

/**
 * Inbound messages recognised as reports, to be read by the background job
 * (lib/server/dmarc/job.ts). The row stays once done (`outcome`), so the re-reads every event
 * of the message causes do not read its attachments again.
 */
export const dmarcJobs = pgTable(
  "dmarc_jobs",
  {
    projectId: projectIdColumn(),
    messageId: text("message_id").notNull(),
    dueAt: at("due_at").notNull().defaultNow(),
    /**
     * null while waiting; `stored`, `duplicate`, `refused`, `no_report`, `failed`,
     * `skipped` (a cap on stored reports was reached) or `other_domain` (the report is about a
     * domain that is not the project's) when done; last_error says why.
     */
    outcome: text("outcome"),
    ...leaseColumns(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId] }), index("dmarc_jobs_due_idx").on(t.dueAt)],
);

/** Reverse-DNS names of report sources, shared by every project (a name is public). null: the resolver had none. */
export const dmarcSourceNames = pgTable("dmarc_source_names", {
  ip: text("ip").primaryKey(),
  name: text("name"),
  checkedAt: at("checked_at").notNull().defaultNow(),
});
