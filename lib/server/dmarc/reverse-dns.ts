import "server-only";
import { Resolver } from "node:dns/promises";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Db } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { DMARC_LIMITS } from "./limits";

/**
 * Reverse-DNS names for a report's sources, looked up by the background job (never while a
 * screen waits) with the dashboard's resolver (DNS_RESOLVER): at most `reverseLookups` per
 * report, the most-sending sources first, each with a timeout and one try, and cached in
 * dmarc_source_names for every project (a name or its absence), so a source seen again costs
 * nothing until the cache entry is a day old.
 */
export async function nameSources(d: Db, ips: string[], opts: { resolver?: string; timeoutMs?: number } = {}): Promise<number> {
  const wanted = [...new Set(ips)].slice(0, DMARC_LIMITS.reverseLookups);
  if (wanted.length === 0) return 0;
  const fresh = new Set(
    rowsOf(
      await d.execute(sql`
        select ip from dmarc_source_names
         where ip in (select jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb))
           and checked_at > now() - (${String(DMARC_LIMITS.reverseCacheMs)}::bigint * interval '1 millisecond')`),
    ).map((r) => String(r.ip)),
  );
  const todo = wanted.filter((ip) => !fresh.has(ip));
  if (todo.length === 0) return 0;
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? DMARC_LIMITS.reverseTimeoutMs, tries: 1 });
  const servers = opts.resolver ?? env().DNS_RESOLVER;
  if (servers) resolver.setServers(servers.split(",").map((s) => s.trim()).filter(Boolean));
  const found = await Promise.all(
    todo.map(async (ip) => ({
      ip,
      name: await resolver.reverse(ip).then(
        (names) => names[0]?.toLowerCase().replace(/\.$/, "").slice(0, 255) ?? null,
        () => null,
      ),
    })),
  );
  await d.execute(sql`
    insert into dmarc_source_names (ip, name, checked_at)
    select x.ip, x.name, now() from jsonb_to_recordset(${JSON.stringify(found)}::jsonb) as x(ip text, name text)
    on conflict (ip) do update set name = excluded.name, checked_at = now()`);
  return found.length;
}
