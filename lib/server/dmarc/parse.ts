import { Parser } from "htmlparser2";
import { isIP } from "node:net";
import { DMARC_LIMITS, type DmarcLimits } from "./limits";
import { refuse } from "./refusal";

/** One <record> of an aggregate report, read tolerantly (RFC 7489 appendix C). */
export type ReportRecord = {
  sourceIp: string;
  count: number;
  /** What the receiver did: none, quarantine, reject. */
  disposition: string;
  /** policy_evaluated: whether DKIM / SPF passed *and aligned* with the From domain. */
  dkimAligned: boolean;
  spfAligned: boolean;
  headerFrom: string | null;
  envelopeFrom: string | null;
  /** auth_results: the raw results and the domains they were for (the first DKIM signature, the first SPF check). */
  dkimDomain: string | null;
  dkimResult: string | null;
  spfDomain: string | null;
  spfResult: string | null;
};

export type ParsedReport = {
  orgName: string;
  reportId: string;
  email: string | null;
  begin: Date;
  end: Date;
  /** policy_published.domain, lower case: the domain the report is about. */
  domain: string;
  policy: string | null;
  pct: number | null;
  records: ReportRecord[];
};

/** Characters fed to the parser between turns of the event loop. */
const CHUNK = 64 * 1024;
/** Text kept of one element: every field of the format is short. */
const MAX_TEXT = 1000;

const META: Record<string, string> = {
  "report_metadata.org_name": "orgName",
  "report_metadata.email": "email",
  "report_metadata.report_id": "reportId",
  "report_metadata.date_range.begin": "begin",
  "report_metadata.date_range.end": "end",
  "policy_published.domain": "domain",
  "policy_published.p": "policy",
  "policy_published.pct": "pct",
};
const RECORD: Record<string, string> = {
  "row.source_ip": "sourceIp",
  "row.count": "count",
  "row.policy_evaluated.disposition": "disposition",
  "row.policy_evaluated.dkim": "dkim",
  "row.policy_evaluated.spf": "spf",
  "identifiers.header_from": "headerFrom",
  "identifiers.envelope_from": "envelopeFrom",
  "auth_results.dkim.domain": "dkimDomain",
  "auth_results.dkim.result": "dkimResult",
  "auth_results.spf.domain": "spfDomain",
  "auth_results.spf.result": "spfResult",
};

/**
 * The report's XML → its fields, with htmlparser2's tokenizer in XML mode: one linear pass,
 * no tree, no DTD or entity processing beyond the five predefined entities and numeric
 * references (a DOCTYPE is refused before parsing in any case), fed CHUNK characters at a time
 * with a turn of the event loop between, so a report of megabytes never holds up requests.
 * Namespace prefixes (Microsoft's) are dropped; nesting, records and text are bounded.
 */
export async function parseReport(xml: string, limits: Pick<DmarcLimits, "records" | "nesting"> = DMARC_LIMITS): Promise<ParsedReport> {
  // A document type is how billion-laughs and external entities are declared; reports have none.
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) throw refuse("report_doctype", "The report declares a DOCTYPE or entities, which reports never do; it was not read.");
  const stack: string[] = [];
  const meta: Record<string, string> = {};
  const records: ReportRecord[] = [];
  let record: Record<string, string> | null = null;
  let text = "";
  let seenRoot = false;

  const parser = new Parser(
    {
      onopentag(raw) {
        const name = local(raw);
        if (!seenRoot) {
          if (name !== "feedback") throw refuse("report_root", "The document is not a DMARC aggregate report (its root is not <feedback>).");
          seenRoot = true;
        }
        stack.push(name);
        if (stack.length > limits.nesting) throw refuse("report_xml", `The report nests elements more than ${limits.nesting} deep; it was not read.`);
        text = "";
        if (stack.length === 2 && name === "record") {
          if (records.length >= limits.records) throw refuse("report_records", `The report has more than ${limits.records} records; it was not read.`);
          record = {};
        }
      },
      ontext(data) {
        if (text.length < MAX_TEXT) text += data.slice(0, MAX_TEXT - text.length);
      },
      onclosetag() {
        const path = stack.slice(1).join(".");
        const value = text.trim();
        text = "";
        if (record && stack[1] === "record") {
          const key = RECORD[stack.slice(2).join(".")];
          // The first DKIM signature and SPF check of a record are the ones kept.
          if (key && value && record[key] === undefined) record[key] = value;
          if (stack.length === 2) {
            records.push(readRecord(record, records.length));
            record = null;
          }
        } else {
          const key = META[path];
          if (key && value && meta[key] === undefined) meta[key] = value;
        }
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  for (let at = 0; at < xml.length; at += CHUNK) {
    parser.write(xml.slice(at, at + CHUNK));
    if (at + CHUNK < xml.length) await new Promise((resolve) => setImmediate(resolve));
  }
  parser.end();
  if (!seenRoot) throw refuse("report_root", "The document is not a DMARC aggregate report (it has no <feedback> element).");

  const orgName = short(meta.orgName);
  const reportId = short(meta.reportId);
  const domain = short(meta.domain)?.toLowerCase() ?? null;
  const begin = epoch(meta.begin);
  const end = epoch(meta.end);
  if (!orgName) throw refuse("report_field", "The report names no reporter (report_metadata.org_name).");
  if (!reportId) throw refuse("report_field", "The report has no id (report_metadata.report_id).");
  if (!domain) throw refuse("report_field", "The report names no domain (policy_published.domain).");
  if (!begin || !end) throw refuse("report_field", "The report's date range is missing or not a time (report_metadata.date_range).");
  const pct = Number(meta.pct);
  return {
    orgName,
    reportId,
    email: short(meta.email),
    begin,
    end,
    domain,
    policy: short(meta.policy)?.toLowerCase() ?? null,
    pct: meta.pct !== undefined && Number.isInteger(pct) && pct >= 0 && pct <= 100 ? pct : null,
    records,
  };
}

const local = (name: string) => name.slice(name.indexOf(":") + 1).toLowerCase();
const short = (v: string | undefined) => (v ? v.slice(0, 255) : null);
const lower = (v: string | undefined) => short(v)?.toLowerCase() ?? null;

function readRecord(r: Record<string, string>, i: number): ReportRecord {
  const sourceIp = r.sourceIp;
  if (!sourceIp || !isIP(sourceIp)) throw refuse("report_field", `Record ${i + 1} has no valid source address (row.source_ip).`);
  const count = /^\d{1,10}$/.test(r.count ?? "") ? Number(r.count) : NaN;
  if (!(count <= 2 ** 31 - 1)) throw refuse("report_field", `Record ${i + 1} has no valid count (row.count).`);
  return {
    sourceIp,
    count,
    disposition: lower(r.disposition) ?? "none",
    dkimAligned: lower(r.dkim) === "pass",
    spfAligned: lower(r.spf) === "pass",
    headerFrom: lower(r.headerFrom),
    envelopeFrom: lower(r.envelopeFrom),
    dkimDomain: lower(r.dkimDomain),
    dkimResult: lower(r.dkimResult),
    spfDomain: lower(r.spfDomain),
    spfResult: lower(r.spfResult),
  };
}

/** Seconds since the epoch (the format's unit) → a Date, or null. */
function epoch(v: string | undefined): Date | null {
  const n = /^\d{1,12}$/.test(v ?? "") ? Number(v) : 0;
  return n > 0 ? new Date(n * 1000) : null;
}
