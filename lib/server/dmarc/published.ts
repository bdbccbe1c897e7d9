import "server-only";
import { Resolver } from "node:dns/promises";
import { env } from "@/lib/server/env";

const NONE = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN"]);

/**
 * The DMARC record published at _dmarc.<domain> now, through the dashboard's resolver
 * (DNS_RESOLVER), one try of at most 2 s: the domain screen shows whether it carries the
 * suggested rua address. null when none is published; a failed look-up says why.
 */
export async function publishedDmarc(domain: string, timeoutMs = 2_000): Promise<{ record: string | null; error: string | null }> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const servers = env().DNS_RESOLVER;
  if (servers) resolver.setServers(servers.split(",").map((s) => s.trim()).filter(Boolean));
  try {
    const records = (await resolver.resolveTxt(`_dmarc.${domain}`)).map((parts) => parts.join(""));
    return { record: records.find((r) => /^v\s*=\s*DMARC1/i.test(r.trim()))?.slice(0, 1000) ?? null, error: null };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    return NONE.has(code) ? { record: null, error: null } : { record: null, error: `The DMARC record could not be looked up (${code || "unknown error"}).` };
  }
}
