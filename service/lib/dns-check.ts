import { Resolver } from "node:dns/promises";
import type { DnsRecordRow } from "../db/schema";

/**
 * Looks the published records up with real DNS queries. `server` ("host:port", or a
 * bare host for port 53) points the resolver at a chosen server, e.g. a test's own.
 */
export function createResolver(server?: string, timeoutMs = 3_000): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (server) resolver.setServers([server]);
  return resolver;
}

const norm = (host: string) => host.toLowerCase().replace(/\.$/, "");
const squash = (value: string) => value.replace(/\s+/g, "");

/** Tag-value list of a DKIM/DMARC record: `v=DKIM1; k=rsa; p=…` → { v, k, p }. */
function tags(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq).trim().toLowerCase()] = squash(part.slice(eq + 1));
  }
  return out;
}

/** Whether one published TXT string satisfies the record we asked for. */
function txtMatches(record: DnsRecordRow, published: string): boolean {
  switch (record.purpose) {
    case "dkim": // the key must be ours; other tags (t=, n=) may be added by the person
      return tags(published).p === tags(record.value).p;
    case "spf": { // their own SPF may list more mechanisms, as long as it includes ours
      const include = record.value.split(/\s+/).find((t) => t.startsWith("include:"));
      const terms = published.trim().toLowerCase().split(/\s+/);
      return terms[0] === "v=spf1" && (!include || terms.includes(include.toLowerCase()));
    }
    case "dmarc": // any DMARC policy will do: p=quarantine is better than ours
      return tags(published).v?.toUpperCase() === "DMARC1";
    default:
      return squash(published) === squash(record.value);
  }
}

/** NXDOMAIN, no data, a timeout: all mean "not published (yet)" for a check that runs again. */
async function orEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch {
    return [];
  }
}

export async function isPublished(resolver: Resolver, record: DnsRecordRow): Promise<boolean> {
  switch (record.type) {
    case "TXT": {
      const txt = await orEmpty(resolver.resolveTxt(record.name));
      return txt.some((chunks) => txtMatches(record, chunks.join("")));
    }
    case "MX": {
      const mx = await orEmpty(resolver.resolveMx(record.name));
      return mx.some((m) => norm(m.exchange) === norm(record.value));
    }
    case "CNAME": {
      const cname = await orEmpty(resolver.resolveCname(record.name));
      return cname.some((c) => norm(c) === norm(record.value));
    }
    default:
      return false;
  }
}

/** Each record with `verified` set to what DNS answers now. */
export async function checkRecords(resolver: Resolver, records: DnsRecordRow[]): Promise<DnsRecordRow[]> {
  return Promise.all(records.map(async (r) => ({ ...r, verified: await isPublished(resolver, r) })));
}
