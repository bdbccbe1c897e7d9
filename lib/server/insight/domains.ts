import "server-only";
import { Resolver } from "node:dns/promises";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dueInOf } from "@/contract/db/due-gate";
import { consumerProvider, providerFromMx, type ProviderKey } from "@/lib/insight/providers";
import { db, type Db } from "@/lib/server/db";
import { env } from "@/lib/server/env";

/**
 * The mailbox provider of company domains, from their MX hosts: looked up in the background
 * (never while a screen waits), a few at a time, with the DNS server of DNS_RESOLVER, and
 * kept in `insight_domains` until it expires. When a domain's provider turns out other than
 * what its messages were counted under, they are marked for the refresher, which moves them.
 */
const DAY = 86_400_000;
export const TTL_MS = { list: 30 * DAY, mx: 7 * DAY, none: DAY } as const;
/** A failed lookup (timeout, SERVFAIL) is tried again after this, doubling per failure, up to 6 hours. */
export const FAILURE_RETRY_MS = 10 * 60_000;
const FAILURE_RETRY_MAX_MS = 6 * 3_600_000;
/** A claimed lookup holds the row this long; a dashboard that dies mid-lookup leaves it to the next. */
const LEASE_MS = 2 * 60_000;

const NONE = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "NODATA"]);

export type LookupOptions = { limit?: number; concurrency?: number; resolver?: string | string[]; timeoutMs?: number };
type Outcome =
  | { kind: "found"; provider: ProviderKey; source: "list" | "mx" | "none"; mx: string | null }
  | { kind: "failed"; error: string };

function resolverFor(options: LookupOptions): Resolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  const servers = options.resolver ?? env().DNS_RESOLVER;
  if (servers) resolver.setServers(Array.isArray(servers) ? servers : servers.split(",").map((s) => s.trim()).filter(Boolean));
  return resolver;
}

export async function classifyDomain(domain: string, resolver: Resolver): Promise<Outcome> {
  const listed = consumerProvider(domain);
  if (listed) return { kind: "found", provider: listed, source: "list", mx: null };
  try {
    const records = await resolver.resolveMx(domain);
    if (records.length === 0) return { kind: "found", provider: "other", source: "none", mx: null };
    const first = [...records].sort((a, b) => a.priority - b.priority)[0]!;
    return { kind: "found", provider: providerFromMx(records), source: "mx", mx: first.exchange.toLowerCase() };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (NONE.has(code)) return { kind: "found", provider: "other", source: "none", mx: null };
    return { kind: "failed", error: `MX lookup failed: ${code || (e instanceof Error ? e.message : String(e))}` };
  }
}

const ms = (n: number) => sql`(${String(Math.round(n))}::bigint * interval '1 millisecond')`;

/** Claims due domains under a lease, so several dashboards never look one up twice at once. */
async function claim(d: Db, limit: number): Promise<{ domain: string; provider: string | null; attempts: number }[]> {
  return rowsOf<{ domain: string; provider: string | null; attempts: number }>(
    await d.execute(sql`
      update insight_domains set expires_at = now() + ${ms(LEASE_MS)}
       where domain in (select domain from insight_domains where expires_at <= now() order by expires_at limit ${String(limit)}::int for update skip locked)
      returning domain, provider, attempts`),
  );
}

async function save(d: Db, row: { domain: string; provider: string | null; attempts: number }, outcome: Outcome): Promise<boolean> {
  if (outcome.kind === "failed") {
    const retry = Math.min(FAILURE_RETRY_MAX_MS, FAILURE_RETRY_MS * 2 ** row.attempts);
    await d.execute(sql`
      update insight_domains set source = 'error', last_error = ${outcome.error}, attempts = attempts + 1, checked_at = now(), expires_at = now() + ${ms(retry)}
       where domain = ${row.domain}`);
    return false;
  }
  const ttl = TTL_MS[outcome.source];
  return d.transaction(async (tx) => {
    await tx.execute(sql`
      update insight_domains set provider = ${outcome.provider}, source = ${outcome.source}, mx = ${outcome.mx}, last_error = null, attempts = 0,
             checked_at = now(), expires_at = now() + ${ms(ttl)}
       where domain = ${row.domain}`);
    if ((row.provider ?? "other") === outcome.provider) return false;
    // Counted under another provider until now: the refresher moves them.
    await tx.execute(sql`
      insert into insight_dirty (message_id, project_id)
      select message_id, project_id from insight_facts where domain = ${row.domain} and provider <> ${outcome.provider}`);
    return true;
  });
}

/** One pass: looks up to `limit` due domains, `concurrency` at a time. Returns how many were looked up. */
export async function lookupDueDomains(options: LookupOptions = {}, d?: Db): Promise<number> {
  const database = d ?? (await db());
  const due = await claim(database, options.limit ?? 16);
  if (due.length === 0) return 0;
  const resolver = resolverFor(options);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < due.length; i = next++) {
      const row = due[i]!;
      await save(database, row, await classifyDomain(row.domain, resolver));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, due.length) }, worker));
  return due.length;
}

/** How long until the next lookup falls due (ms; null: no domain known): the claim's condition as a time, for the due gate. */
export async function nextDomainLookupDue(d: Db): Promise<number | null> {
  return dueInOf(rowsOf(await d.execute(sql`select (extract(epoch from min(expires_at) - now()) * 1000)::float8 as in_ms from insight_domains`)));
}

/** Domains of a project's recent mail still waiting for their first lookup: their mail counts as Other until then. */
export async function pendingDomains(projectId: string, since: Date, d?: Db): Promise<number> {
  const database = d ?? (await db());
  const [row] = rowsOf<{ n: number }>(
    await database.execute(sql`
      select count(*)::int as n from insight_domains dom
       where dom.provider is null
         and exists (select 1 from insight_facts f where f.domain = dom.domain and f.project_id = ${projectId} and f.at >= ${since.toISOString()}::timestamptz)`),
  );
  return Number(row?.n ?? 0);
}
