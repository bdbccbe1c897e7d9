import { dmarcTags } from "@/lib/dmarc/advice";
import type { DnsRecord } from "@/lib/schemas/domains";

/**
 * Expected vs published, per record type, with the mistake named. Pure (no lookups), so
 * the rules read in one place; dns-check.ts does the lookups around it.
 * Invariant: status "ok" ⇔ no problems, so the screen can show problems without a rule of its own.
 */
export type Published = { text: string; chunks?: string[]; mx?: { exchange: string; priority: number } };
export type Comparison = { status: "ok" | "missing" | "mismatch"; problems: string[] };

export const TWO_SPF = "Two SPF records: mailbox providers treat this as an error — merge them into one";

const OK: Comparison = { status: "ok", problems: [] };
const MISSING: Comparison = { status: "missing", problems: [] };
const mismatch = (...problems: string[]): Comparison => ({ status: "mismatch", problems });

/** Hostnames compare without case and without the trailing dot of the absolute form. */
const host = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");
const short = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value);
const squash = (value: string) => value.replace(/[\s"]/g, "");

export function compareRecord(record: DnsRecord, published: Published[]): Comparison {
  const type = record.type.trim().toUpperCase();
  if (type === "TXT" || type === "SPF") return isSpf(record.value) ? compareSpf(record, published) : compareTxt(record, published);
  if (type === "MX") return compareMx(record, published);
  if (type === "CNAME") return compareHost(record, published);
  if (!published.length) return MISSING;
  const expected = record.value.trim().toLowerCase();
  if (published.some((p) => p.text.trim().toLowerCase() === expected)) return OK;
  return mismatch(`Published: ${published.map((p) => p.text).join(", ")}; expected ${record.value}`);
}

function isDkim(record: DnsRecord): boolean {
  return /dkim/i.test(record.purpose) || /^\s*v=dkim1/i.test(record.value) || /\._domainkey(\.|$)/i.test(record.name);
}

function compareTxt(record: DnsRecord, published: Published[]): Comparison {
  const expected = record.value;
  if (!published.length) return MISSING;
  const dkim = isDkim(record);
  if (published.some((p) => p.text === expected)) {
    // A selector with two keys (an old one left behind): verifiers may take either, or fail.
    const keys = dkim ? published.filter((p) => /^\s*v=dkim1|(^|;)\s*p=/i.test(p.text)).length : 1;
    return keys > 1 ? mismatch(`${keys} DKIM records at this name: receivers may use the wrong one — delete all but the expected one`) : OK;
  }

  // The DMARC record with tags added (the rua address the DMARC section suggests, ruf…): every
  // expected tag with its value, and more. The same tags spaced differently fall through below.
  if (/^\s*v\s*=\s*dmarc1/i.test(expected)) {
    const want = Object.entries(dmarcTags(expected));
    const extended = published.some((p) => {
      const tags = dmarcTags(p.text);
      return Object.keys(tags).length > want.length && want.every(([k, v]) => tags[k]?.toLowerCase() === v.toLowerCase());
    });
    if (extended) return OK;
  }

  const spaced = published.find((p) => squash(p.text) === squash(expected));
  if (spaced) {
    if (spaced.text.includes('"')) {
      return mismatch("The value contains quotation marks: paste it without quotes — the DNS panel adds them");
    }
    return mismatch(
      dkim
        ? "The DKIM value has spaces or line breaks in it: it was wrapped when copied — paste it again as one line"
        : `Found only with different spacing: "${short(spaced.text)}" — copy the value exactly`,
    );
  }
  const cased = published.find((p) => squash(p.text).toLowerCase() === squash(expected).toLowerCase());
  if (cased) return mismatch(`Found only with different letter case: "${short(cased.text)}" — copy the value exactly`);

  if (dkim) {
    const whole = squash(expected);
    const cut = published.find((p) => squash(p.text).length < whole.length && whole.startsWith(squash(p.text)));
    if (cut) {
      return mismatch(
        `The DKIM value is cut short: ${cut.text.length} of ${expected.length} characters are published. ` +
          "The DNS panel may have a length limit or kept only the first 255-character part — paste the whole value",
      );
    }
    return mismatch("A different DKIM key is published here: replace it with the expected value");
  }
  return mismatch("The expected value is not among the TXT records published here: add it");
}

const isSpf = (value: string) => /^\s*"?v=spf1(\s|"?$)/i.test(value);

/** SPF terms without the version and with the default "+" qualifier made implicit, so "+include:x" = "include:x". */
function spfTerms(value: string): string[] {
  return value
    .replace(/"/g, "")
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t && t !== "v=spf1")
    .map((t) => t.replace(/^\+/, ""));
}
const isAll = (term: string) => /^[~?-]?all$/.test(term);

/**
 * SPF is compared by mechanisms, not text: the published record may merge several senders
 * ("include:a include:b ~all") and still authorise ours, and "-all" versus "~all" is the
 * domain owner's choice. What matters: one SPF record, holding every mechanism we ask for.
 */
function compareSpf(record: DnsRecord, published: Published[]): Comparison {
  const spf = published.filter((p) => isSpf(p.text));
  if (!spf.length) return MISSING;
  const problems: string[] = [];
  if (spf.length > 1) {
    problems.push(spf.length === 2 ? TWO_SPF : `${spf.length} SPF records: mailbox providers treat this as an error — merge them into one`);
  }
  const wanted = spfTerms(record.value).filter((t) => !isAll(t));
  const lacking = (p: Published) => wanted.filter((t) => !spfTerms(p.text).includes(t));
  const best = spf.reduce((a, b) => (lacking(b).length < lacking(a).length ? b : a));
  const absent = lacking(best);
  if (absent.length) {
    problems.push(`The SPF record lacks ${absent.join(" ")}: add it to the existing record rather than publishing another one`);
  }
  if (spfTerms(best.text).includes("all")) {
    problems.push('The SPF record ends in "+all", which lets any server send as this domain: use "~all" or "-all"');
  }
  return problems.length ? { status: "mismatch", problems } : OK;
}

function compareMx(record: DnsRecord, published: Published[]): Comparison {
  if (!published.length) return MISSING;
  const expected = host(record.value);
  const records = published.map((p) => p.mx ?? parseMx(p.text));
  const match = records.find((mx) => host(mx.exchange) === expected);
  const list = records.map((mx) => `${mx.priority} ${host(mx.exchange)}`).join(", ");
  if (!match) return mismatch(`Mail for this name goes to ${list} instead of ${expected}: replace those MX records with the expected one`);
  const problems: string[] = [];
  if (record.priority != null && match.priority !== record.priority) {
    problems.push(`The MX record has priority ${match.priority}; expected ${record.priority}`);
  }
  // Lower number = preferred: another server at the same or a better priority takes the mail first.
  const rivals = records.filter((mx) => mx !== match && mx.priority <= match.priority);
  if (rivals.length) {
    problems.push(`Other MX records come first or equal (${rivals.map((mx) => host(mx.exchange)).join(", ")}): mail goes to them instead`);
  }
  return problems.length ? { status: "mismatch", problems } : OK;
}

function parseMx(text: string): { exchange: string; priority: number } {
  const [priority, exchange = ""] = text.trim().split(/\s+/);
  return { priority: Number(priority), exchange };
}

function compareHost(record: DnsRecord, published: Published[]): Comparison {
  if (!published.length) return MISSING;
  if (published.some((p) => host(p.text) === host(record.value))) return OK;
  return mismatch(`Points to ${published.map((p) => host(p.text)).join(", ")} instead of ${host(record.value)}`);
}
