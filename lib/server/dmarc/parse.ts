import { XMLParser } from "fast-xml-parser";
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
  /** auth_results: the raw results and the domains they were for (the first DKIM signature). */
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

const ARRAYS = new Set(["feedback.record", "feedback.record.auth_results.dkim", "feedback.record.auth_results.spf"]);

/**
 * The XML parser, set so that no document can make it expand: entities are not processed
 * (and a DOCTYPE is refused before parsing, below), values stay strings (a report id of
 * digits keeps its digits), namespaces (Microsoft's) are dropped, nesting is bounded.
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  trimValues: true,
  maxNestedTags: DMARC_LIMITS.nesting,
  isArray: (_name, jpath) => ARRAYS.has(String(jpath)),
});

type Node = Record<string, unknown>;
const obj = (v: unknown): Node => (v && typeof v === "object" && !Array.isArray(v) ? (v as Node) : {});
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 255) : null);
const lower = (v: unknown) => text(v)?.toLowerCase() ?? null;

export function parseReport(xml: string, limits: Pick<DmarcLimits, "records"> = DMARC_LIMITS): ParsedReport {
  // A document type is how billion-laughs and external entities are declared; reports have none.
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) throw refuse("report_doctype", "The report declares a DOCTYPE or entities, which reports never do; it was not read.");
  // Counted on the text before the tree is built, so a report of a million records costs a scan, not a tree.
  // Every record opens and closes with a tag ending "record>" (with or without a namespace prefix).
  const recordCount = Math.floor(countOccurrences(xml, "record>") / 2);
  if (recordCount > limits.records) throw refuse("report_records", `The report has more than ${limits.records} records; it was not read.`);
  let doc: Node;
  try {
    doc = obj(parser.parse(xml));
  } catch {
    throw refuse("report_xml", "The report is not well-formed XML; it was not read.");
  }
  const feedback = obj(doc.feedback);
  if (!("feedback" in doc)) throw refuse("report_root", "The document is not a DMARC aggregate report (its root is not <feedback>).");
  const meta = obj(feedback.report_metadata);
  const range = obj(meta.date_range);
  const published = obj(feedback.policy_published);
  const orgName = text(meta.org_name);
  const reportId = text(meta.report_id);
  const domain = lower(published.domain);
  const begin = epoch(range.begin);
  const end = epoch(range.end);
  if (!orgName) throw refuse("report_field", "The report names no reporter (report_metadata.org_name).");
  if (!reportId) throw refuse("report_field", "The report has no id (report_metadata.report_id).");
  if (!domain) throw refuse("report_field", "The report names no domain (policy_published.domain).");
  if (!begin || !end) throw refuse("report_field", "The report's date range is missing or not a time (report_metadata.date_range).");
  const rows = Array.isArray(feedback.record) ? feedback.record : [];
  if (rows.length > limits.records) throw refuse("report_records", `The report has more than ${limits.records} records; it was not read.`);
  const pct = Number(text(published.pct));
  return {
    orgName,
    reportId,
    email: text(meta.email),
    begin,
    end,
    domain,
    policy: lower(published.p),
    pct: Number.isInteger(pct) && pct >= 0 && pct <= 100 ? pct : null,
    records: rows.map(readRecord),
  };
}

function readRecord(value: unknown, i: number): ReportRecord {
  const record = obj(value);
  const row = obj(record.row);
  const evaluated = obj(row.policy_evaluated);
  const ids = obj(record.identifiers);
  const auth = obj(record.auth_results);
  const dkim = obj((auth.dkim as unknown[] | undefined)?.[0]);
  const spf = obj((auth.spf as unknown[] | undefined)?.[0]);
  const sourceIp = text(row.source_ip);
  if (!sourceIp || !isIP(sourceIp)) throw refuse("report_field", `Record ${i + 1} has no valid source address (row.source_ip).`);
  const count = Number(text(row.count));
  if (!Number.isSafeInteger(count) || count < 0 || count > 2 ** 31 - 1) throw refuse("report_field", `Record ${i + 1} has no valid count (row.count).`);
  return {
    sourceIp,
    count,
    disposition: lower(evaluated.disposition) ?? "none",
    dkimAligned: lower(evaluated.dkim) === "pass",
    spfAligned: lower(evaluated.spf) === "pass",
    headerFrom: lower(ids.header_from),
    envelopeFrom: lower(ids.envelope_from),
    dkimDomain: lower(dkim.domain),
    dkimResult: lower(dkim.result),
    spfDomain: lower(spf.domain),
    spfResult: lower(spf.result),
  };
}

/** Seconds since the epoch (the format's unit) → a Date, or null. */
function epoch(v: unknown): Date | null {
  const n = Number(text(v));
  return Number.isSafeInteger(n) && n > 0 ? new Date(n * 1000) : null;
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) n += 1;
  return n;
}
