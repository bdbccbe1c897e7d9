import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db } from "@/lib/server/db";
import { dmarcJobs, dmarcReports } from "@/lib/server/db/schema/dmarc";
import { drainRereads } from "@/lib/server/message-index/reread-worker";
import { enqueueRereads } from "@/lib/server/message-index/reread-queue";
import { startDashboardOnReal, type DashboardOnReal } from "@/lib/test/dashboard-on-real";
import { billionLaughs, googleReport, microsoftReport, SAMPLE_ROWS, yahooReport, zipBomb } from "@/lib/test/dmarc-samples";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import { messages } from "@/service/db/schema";
import { startInboundSmtp, type InboundSmtp } from "@/service/smtp/inbound";
import { addVerifiedDomain, waitFor } from "@/service/test/sending-fixtures";
import { runDmarcJobs, type DmarcJobOptions } from "./job";
import type { DmarcCaps } from "./caps";
import { DMARC_LIMITS } from "./limits";

/**
 * The whole path on real parts: a report sent as real mail over SMTP to the bundled service,
 * the message found by the reconciler's re-read, recognised, and read by the job through the
 * interface's attachment listing and download, on this run's database (PGlite or Postgres).
 */
let t: DashboardOnReal;
let smtp: InboundSmtp;
let dns: FakeDnsServer;
let n = 0;

beforeAll(async () => {
  t = await startDashboardOnReal({ serviceTimeoutMs: 10_000 });
  await addVerifiedDomain(t.real.svc.db, t.real.svc.alpha.id, "in.alpha.test", { receiving: true });
  // The domain the sample reports are about: a report is kept only under a project that has it.
  await addVerifiedDomain(t.real.svc.db, t.real.svc.alpha.id, "example.com");
  smtp = await startInboundSmtp(t.real.svc.deps, 0, "127.0.0.1");
  dns = await startFakeDnsServer({ "41.220.85.209.in-addr.arpa": [{ type: "PTR", target: "mail-sor-f41.google.com." }] });
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await dns?.close();
  await t?.close();
});

/** Sends one report mail and brings it to the dashboard as the reconciler would; answers the job's outcome. */
async function arrive(file: { filename: string; contentType: string; bytes: Uint8Array }, subject = `Report Domain: example.com Submitter: test Report-ID: <${++n}>`, opts: DmarcJobOptions = {}) {
  await nodemailer
    .createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true })
    .sendMail({ from: "noreply-dmarc-support@google.com", to: "dmarc@in.alpha.test", subject, text: "This is an aggregate report.", attachments: [{ filename: file.filename, contentType: file.contentType, content: Buffer.from(file.bytes) }] });
  const [message] = await waitFor(async () => {
    const rows = await t.real.svc.db.select({ id: messages.id }).from(messages).where(eq(messages.subject, subject));
    return rows.length ? rows : null;
  }, "the report mail");
  const d = await db();
  await enqueueRereads(d, t.alpha.id, [message!.id], "reconcile");
  await drainRereads();
  await runDmarcJobs(10, { resolver: dns.address, ...opts });
  const [job] = await d.select().from(dmarcJobs).where(eq(dmarcJobs.messageId, message!.id));
  return job;
}

const reports = async () => (await (await db()).select().from(dmarcReports)).sort((a, b) => a.orgName.localeCompare(b.orgName));

describe("DMARC report job", () => {
  it("reads each reporter's report from real inbound mail, once, with its records and the sources' names", async () => {
    expect(await arrive(googleReport("example.com", SAMPLE_ROWS))).toMatchObject({ outcome: "stored", lastError: null });
    expect(await arrive(microsoftReport("example.com", SAMPLE_ROWS))).toMatchObject({ outcome: "stored" });
    expect(await arrive(yahooReport("example.com", SAMPLE_ROWS))).toMatchObject({ outcome: "stored" });
    expect((await reports()).map((r) => [r.orgName, r.domain, r.policy])).toEqual([
      ["Enterprise Outlook", "example.com", "none"],
      ["google.com", "example.com", "none"],
      ["Yahoo", "example.com", "none"],
    ]);
    const totals = rowsOf(await (await db()).execute(sql`select source_ip, sum(count)::int as n, bool_and(dkim_aligned) as dkim from dmarc_records group by source_ip order by source_ip`));
    expect(totals).toEqual([
      { source_ip: "203.0.113.9", n: 21, dkim: false },
      { source_ip: "209.85.220.41", n: 360, dkim: true },
      { source_ip: "40.107.22.95", n: 90, dkim: true },
    ]);
    const names = rowsOf(await (await db()).execute(sql`select ip, name from dmarc_source_names order by ip`));
    expect(names).toContainEqual({ ip: "209.85.220.41", name: "mail-sor-f41.google.com" });
    expect(names).toContainEqual({ ip: "203.0.113.9", name: null });
  }, 60_000);

  it("a report sent again is not counted twice", async () => {
    const before = (await reports()).length;
    expect(await arrive(googleReport("example.com", SAMPLE_ROWS))).toMatchObject({ outcome: "duplicate" });
    expect((await reports()).length).toBe(before);
  }, 30_000);

  it("a message recognised again (another event, another re-read) is not read again", async () => {
    const [job] = await (await db()).select().from(dmarcJobs).limit(1);
    await enqueueRereads(await db(), t.alpha.id, [job!.messageId], "reconcile");
    await drainRereads();
    expect(await runDmarcJobs(10)).toBe(0);
  });

  it.each([
    ["a zip bomb", { filename: "google.com!example.com!1!2.zip", contentType: "application/zip", bytes: zipBomb() }, /decompress/],
    ["billion laughs", { filename: "yahoo.com!example.com!1!2.xml", contentType: "text/xml", bytes: new TextEncoder().encode(billionLaughs()) }, /DOCTYPE/],
    ["the wrong root", { filename: "r.xml", contentType: "text/xml", bytes: new TextEncoder().encode("<?xml version='1.0'?><html/>") }, /<feedback>/],
    ["an attachment over 5 MB", { filename: "big.xml.gz", contentType: "application/gzip", bytes: new Uint8Array(randomBytes(5 * 1024 * 1024 + 10)) }, /larger than 5242880 bytes/],
  ])("%s is refused with its reason and stores nothing", async (_name, file, reason) => {
    const before = (await reports()).length;
    const job = await arrive(file);
    expect(job).toMatchObject({ outcome: "refused" });
    expect(job!.lastError).toMatch(reason);
    expect((await reports()).length).toBe(before);
  }, 60_000);

  it("an inbound message that is not a report is never queued", async () => {
    await nodemailer
      .createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true })
      .sendMail({ from: "someone@example.com", to: "help@in.alpha.test", subject: "Hello", text: "Hi" });
    const [message] = await waitFor(async () => {
      const rows = await t.real.svc.db.select({ id: messages.id }).from(messages).where(eq(messages.subject, "Hello"));
      return rows.length ? rows : null;
    }, "the mail");
    await enqueueRereads(await db(), t.alpha.id, [message!.id], "reconcile");
    await drainRereads();
    expect(await (await db()).select().from(dmarcJobs).where(eq(dmarcJobs.messageId, message!.id))).toEqual([]);
  }, 30_000);

  it("a report about a domain that is not the project's is not stored, and the job says why", async () => {
    const before = (await reports()).length;
    const job = await arrive(googleReport("stranger.example", SAMPLE_ROWS, "stranger-1"));
    expect(job).toMatchObject({ outcome: "other_domain" });
    expect(job!.lastError).toMatch(/stranger\.example, which is not a domain of this project/);
    expect((await reports()).length).toBe(before);
  }, 30_000);

  describe("caps on what is stored", () => {
    const caps = (over: Partial<DmarcCaps>) => ({ caps: { ...DMARC_LIMITS, ...over } });
    const subject = () => `Report Domain: example.com Submitter: test Report-ID: <${++n}>`;

    it("a project holding its cap of reports downloads no more: skipped, with the cap named", async () => {
      const held = (await reports()).length;
      const job = await arrive(googleReport("example.com", SAMPLE_ROWS, "cap-project"), subject(), caps({ reportsPerProject: held }));
      expect(job).toMatchObject({ outcome: "skipped" });
      expect(job!.lastError).toMatch(`holds ${held} DMARC reports, its cap`);
      expect((await reports()).length).toBe(held);
    }, 30_000);

    it("all projects together have a cap too", async () => {
      const held = (await reports()).length;
      const job = await arrive(googleReport("example.com", SAMPLE_ROWS, "cap-total"), subject(), caps({ reportsTotal: held }));
      expect(job).toMatchObject({ outcome: "skipped" });
      expect(job!.lastError).toMatch(`${held} DMARC reports over all projects`);
    }, 30_000);

    it("a domain's reports per day are capped (counted by arrival), and the project's records", async () => {
      const held = (await reports()).filter((r) => r.domain === "example.com").length;
      const day = await arrive(yahooReport("example.com", SAMPLE_ROWS, "cap-day"), subject(), caps({ reportsPerDomainDay: held }));
      expect(day).toMatchObject({ outcome: "skipped" });
      expect(day!.lastError).toMatch(`example.com received ${held} DMARC reports in the last 24 hours`);
      const records = rowsOf(await (await db()).execute(sql`select count(*)::int as n from dmarc_records`))[0]!.n as number;
      const rec = await arrive(yahooReport("example.com", SAMPLE_ROWS, "cap-records"), subject(), caps({ recordsPerProject: records + SAMPLE_ROWS.length - 1 }));
      expect(rec).toMatchObject({ outcome: "skipped" });
      expect(rec!.lastError).toMatch(/records would take the project's DMARC records past/);
      expect((await reports()).length).toBe(held);
      // Under the caps, the same report is stored.
      expect(await arrive(yahooReport("example.com", SAMPLE_ROWS, "cap-records"), subject(), caps({ recordsPerProject: records + SAMPLE_ROWS.length }))).toMatchObject({ outcome: "stored" });
    }, 60_000);
  });
});
