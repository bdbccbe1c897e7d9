import "server-only";
import { Resolver } from "node:dns/promises";
import type { DnsRecord } from "@/lib/schemas/domains";
import type { CheckStatus, RecordCheck } from "@/lib/schemas/domains-view";
import { compareRecord, type Comparison, type Published } from "./dns-compare";
import { fullHost, relativeHost } from "@/lib/domains/records";

/**
 * The live DNS check of a domain screen: for every record the service asks for, what is
 * published now, whether it matches, and the mistake behind it when it does not. Runs on
 * the dashboard's server with real lookups; the resolver is configurable so tests (and
 * admins behind split-horizon DNS) can point it at a server of their choice.
 */
export type { CheckStatus, RecordCheck };

export type CheckOptions = {
  /** "ip", "ip:port" or "[ipv6]:port" (one or several); the system resolver when absent. */
  resolver?: string | string[];
  timeoutMs?: number;
  /** Tries per server; each retry doubles the timeout (c-ares). */
  tries?: number;
  /** The domain the records belong to: completes relative names and finds doubled ones. */
  domain?: string;
};

type Lookup = { kind: "found"; values: Published[] } | { kind: "none" } | { kind: "error"; message: string };

const NONE_CODES = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "NODATA"]);
const ERROR_TEXT: Record<string, string> = {
  ETIMEOUT: "the DNS server did not answer in time",
  ECONNREFUSED: "the DNS server refused the connection",
  ESERVFAIL: "the DNS server failed to answer (SERVFAIL)",
  EREFUSED: "the DNS server refused the query",
};

/** The record type to ask for: SPF records are published as TXT (the SPF RR type is obsolete). */
function queryType(record: DnsRecord): string {
  const type = record.type.trim().toUpperCase();
  return type === "SPF" ? "TXT" : type;
}

async function lookup(resolver: Resolver, name: string, type: string): Promise<Lookup> {
  try {
    const values = await resolveAs(resolver, name, type);
    return values.length ? { kind: "found", values } : { kind: "none" };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (NONE_CODES.has(code)) return { kind: "none" };
    return { kind: "error", message: `Lookup of ${type} ${name} failed: ${ERROR_TEXT[code] ?? (code || "unknown error")}` };
  }
}

async function resolveAs(resolver: Resolver, name: string, type: string): Promise<Published[]> {
  switch (type) {
    case "TXT":
      // A TXT record arrives as its 255-byte strings; the value is their concatenation.
      return (await resolver.resolveTxt(name)).map((chunks) => ({ text: chunks.join(""), chunks }));
    case "MX":
      return (await resolver.resolveMx(name)).map((mx) => ({ text: `${mx.priority} ${mx.exchange}`, mx }));
    case "CNAME":
      return (await resolver.resolveCname(name)).map((text) => ({ text }));
    case "A":
      return (await resolver.resolve4(name)).map((text) => ({ text }));
    case "AAAA":
      return (await resolver.resolve6(name)).map((text) => ({ text }));
    default:
      return ((await resolver.resolve(name, type)) as unknown[]).map((v) => ({ text: typeof v === "string" ? v : JSON.stringify(v) }));
  }
}

/** Zones a DNS panel may have appended the name to: the domain and its parents, or the name's own suffixes. */
function zonesFor(name: string, domain?: string): string[] {
  const labels = (domain ?? name).split(".");
  const zones: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) {
    if (!labels[i].startsWith("_")) zones.push(labels.slice(i).join("."));
  }
  return zones;
}

/** The record typed with the domain twice (`x._domainkey.example.com.example.com`): where is it? */
async function findDoubled(resolver: Resolver, name: string, type: string, domain?: string): Promise<string | null> {
  const zones = zonesFor(name, domain);
  const hits = await Promise.all(
    zones.map(async (zone) => ((await lookup(resolver, `${name}.${zone}`, type)).kind === "found" ? zone : null)),
  );
  const zone = hits.find((z) => z !== null);
  if (!zone) return null;
  const host = relativeHost(name, zone);
  return (
    `Found at ${name}.${zone}: the domain was typed twice. In the DNS panel enter the host as ` +
    `"${host}"${host === "@" ? " (or leave it empty)" : ""} — the panel adds ${zone} itself`
  );
}

/** When the expected type is absent: is another type sitting at the name (a CNAME, or a flattened address)? */
async function findWrongType(resolver: Resolver, name: string, type: string): Promise<string | null> {
  if (type === "TXT" || type === "MX") {
    const cname = await lookup(resolver, name, "CNAME");
    if (cname.kind === "found") {
      const target = cname.values[0].text;
      return (
        `A CNAME record (to ${target}) is published here where a ${type} record is expected: delete it and add the ${type} record; ` +
        `if your DNS provider proxies or flattens this name, turn that off for it`
      );
    }
  }
  if (type === "CNAME") {
    const address = await lookup(resolver, name, "A");
    if (address.kind === "found") {
      return (
        `An address record (${address.values.map((v) => v.text).join(", ")}) answers here instead of the CNAME: ` +
        `the DNS provider is proxying or flattening it — set the record to "DNS only" (no proxy)`
      );
    }
  }
  return null;
}

async function checkOne(resolver: Resolver, record: DnsRecord, options: CheckOptions): Promise<RecordCheck> {
  const name = options.domain ? fullHost(record.name, options.domain) : record.name.trim().toLowerCase().replace(/\.$/, "");
  const type = queryType(record);
  const result = await lookup(resolver, name, type);
  if (result.kind === "error") return { record, name, status: "error", found: [], problems: [result.message] };

  const published = result.kind === "found" ? result.values : [];
  const comparison: Comparison = compareRecord(record, published);
  const problems = [...comparison.problems];
  if (comparison.status !== "ok") {
    const wrongType = await findWrongType(resolver, name, type);
    if (wrongType) return { record, name, status: "mismatch", found: published.map((p) => p.text), problems: [...problems, wrongType] };
  }
  if (comparison.status === "missing") {
    const doubled = await findDoubled(resolver, name, type, options.domain);
    if (doubled) problems.push(doubled);
  }
  return { record, name, status: comparison.status, found: published.map((p) => p.text), problems };
}

export async function checkRecords(records: DnsRecord[], options: CheckOptions = {}): Promise<RecordCheck[]> {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
  if (options.resolver) {
    const servers = Array.isArray(options.resolver) ? options.resolver : options.resolver.split(",").map((s) => s.trim());
    try {
      resolver.setServers(servers);
    } catch {
      const message = `The DNS resolver "${servers.join(", ")}" is not valid: give an IP address with an optional port, like 1.1.1.1:53`;
      return records.map((record) => ({ record, name: record.name, status: "error", found: [], problems: [message] }));
    }
  }
  return Promise.all(records.map((record) => checkOne(resolver, record, options)));
}
