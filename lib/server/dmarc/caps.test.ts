import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { useTestProject } from "@/lib/test/project-db";
import { roomBeforeDownload, roomForReport, type DmarcCaps } from "./caps";
import { DMARC_LIMITS } from "./limits";
import type { ParsedReport, ReportRecord } from "./parse";
import { storeReport } from "./store";

/**
 * The cap on records per project counts the reports stored before migration 0018 added
 * `record_count` (they hold 0 there) by their records, as it counts the newer ones.
 */
const fixture = useTestProject();

const record: ReportRecord = { sourceIp: "192.0.2.1", count: 3, disposition: "none", dkimAligned: true, spfAligned: true, headerFrom: "example.com", envelopeFrom: null, dkimDomain: "example.com", dkimResult: "pass", spfDomain: null, spfResult: null };
const report = (reportId: string, records: number): ParsedReport => ({
  orgName: "google.com", reportId, email: null, begin: new Date(Date.now() - 86_400_000), end: new Date(), domain: "example.com", policy: "none", pct: 100,
  records: Array.from({ length: records }, () => record),
});
const caps = (recordsPerProject: number): DmarcCaps => ({ ...DMARC_LIMITS, recordsPerProject });

it("counts the records of reports stored before record_count existed toward the project's cap", async () => {
  const d = await db();
  expect(await storeReport(d, fixture.project.id, "msg-old", report("old", 4))).toEqual({ outcome: "stored" });
  // As migration 0018 left a report stored before it: its records there, its count 0.
  await d.execute(sql`update dmarc_reports set record_count = 0 where report_id = 'old'`);
  expect(await storeReport(d, fixture.project.id, "msg-new", report("new", 2))).toEqual({ outcome: "stored" });

  // 6 records held: a cap of 6 is reached, one of 7 is not.
  expect(await roomBeforeDownload(d, fixture.project.id, caps(6))).toMatch("hold 6 records, its cap");
  expect(await roomBeforeDownload(d, fixture.project.id, caps(7))).toBeNull();
  await d.transaction(async (tx) => {
    expect(await roomForReport(tx, fixture.project.id, "example.com", 2, caps(7))).toMatch("2 records would take the project's DMARC records past 7");
    expect(await roomForReport(tx, fixture.project.id, "example.com", 1, caps(7))).toBeNull();
  });
  expect(await storeReport(d, fixture.project.id, "msg-over", report("over", 2), caps(7))).toMatchObject({ outcome: "skipped" });
});
