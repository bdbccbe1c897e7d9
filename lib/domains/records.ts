import type { DnsRecord } from "@/lib/schemas/domains";

/**
 * Record names in the two forms admins need: the full name (what a lookup sees) and the
 * name relative to the zone (what most DNS panels want in their "host" field, since they
 * append the zone themselves — typing the full name there is the classic doubled-domain
 * mistake). The service may give names either way; both functions accept both.
 */

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/** `mail._domainkey.example.com` in zone `example.com` → `mail._domainkey`; the apex → `@`. */
export function relativeHost(recordName: string, zone: string): string {
  const name = bare(recordName);
  const origin = bare(zone);
  if (name === "" || name === "@" || name === origin) return "@";
  if (name.endsWith(`.${origin}`)) return name.slice(0, -(origin.length + 1));
  // Not under the zone: already relative (names from the service never point outside it).
  return name;
}

/** `mail._domainkey` or `mail._domainkey.example.com` in zone `example.com` → `mail._domainkey.example.com`. */
export function fullHost(recordName: string, zone: string): string {
  const relative = relativeHost(recordName, zone);
  const origin = bare(zone);
  return relative === "@" ? origin : `${relative}.${origin}`;
}

/** Comment lines of the zone file: what each record is for, in the admin's words. */
const PURPOSES: Record<string, string> = {
  dkim: "DKIM: the public key receivers use to check this domain's signatures",
  spf: "SPF: the servers allowed to send mail for this domain",
  dmarc: "DMARC: what receivers do with mail that fails SPF and DKIM",
  "return-path": "Return path: where bounces are sent",
  mx: "MX: where mail for this domain is delivered",
  receiving: "MX: where mail for this domain is delivered",
  verification: "Verification: proves the domain is yours",
};

function purposeComment(purpose: string): string {
  const key = purpose.trim().toLowerCase();
  const text = PURPOSES[key] ?? (key ? `Purpose: ${purpose.trim()}` : "Purpose not given");
  return text.replace(/[\r\n]+/g, " ");
}

const MAX_STRING_BYTES = 255;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/g;
const decimalEscape = (c: string) => `\\${String(c.charCodeAt(0)).padStart(3, "0")}`;
const encoder = new TextEncoder();

/**
 * A TXT value as zone-file character-strings: one DNS string holds at most 255 bytes, so
 * long values (DKIM keys) become several quoted strings that resolvers join back together.
 * Splits by code point so a multi-byte character is never cut; quotes and backslashes are
 * escaped after splitting, so an escape is never cut either, and control characters
 * (a pasted line break) become RFC 1035 `\DDD` escapes rather than breaking the line.
 */
export function txtStrings(value: string): string[] {
  const chunks: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of value) {
    const size = encoder.encode(char).length;
    if (bytes + size > MAX_STRING_BYTES) {
      chunks.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  chunks.push(current);
  return chunks.map((chunk) => `"${chunk.replace(/[\\"]/g, (c) => `\\${c}`).replace(CONTROL, decimalEscape)}"`);
}

/** A hostname as zone-file data: fully qualified (trailing dot), so $ORIGIN is not appended to it. */
const absolute = (host: string) => `${bare(host)}.`;

function rdata(record: DnsRecord): string {
  const type = record.type.trim().toUpperCase();
  switch (type) {
    case "TXT":
    case "SPF":
      return txtStrings(record.value).join(" ");
    case "MX":
      // A missing priority would make the line unparseable; 10 is the customary single-MX value.
      return `${record.priority ?? 10} ${absolute(record.value)}`;
    case "CNAME":
    case "NS":
    case "PTR":
      return absolute(record.value);
    default:
      return record.value.trim();
  }
}

export type ZoneFileOptions = { ttl?: number };

/**
 * The records as a BIND zone-file snippet to paste or import into a DNS panel. Names are
 * relative to `$ORIGIN`; each record carries its TTL so the snippet does not change the
 * `$TTL` of a zone file it is pasted into. No timestamp: the same records give the same text.
 */
export function zoneFileSnippet(domain: string, records: DnsRecord[], options: ZoneFileOptions = {}): string {
  const ttl = options.ttl ?? 3600;
  const origin = bare(domain);
  const lines = [`; DNS records for ${origin}`, `$ORIGIN ${origin}.`];
  for (const record of records) {
    lines.push("", `; ${purposeComment(record.purpose)}`);
    lines.push([relativeHost(record.name, origin), ttl, "IN", record.type.trim().toUpperCase(), rdata(record)].join("\t"));
  }
  return `${lines.join("\n")}\n`;
}
