import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { allDomains } from "@/lib/server/domains/manage";
import type { Project } from "@/lib/server/gate/access";
import { service } from "@/lib/server/service";

/** Other domains whose receiving state is read, one GET each, looking for one that receives. */
export const RUA_CANDIDATES = 10;

/**
 * Where the rua address goes: a domain of the project that receives mail (the interface's
 * receiving state, `enabled`), since reports arrive as inbound mail. The domain itself when
 * it receives; else the first of the project's other domains that does (at most
 * RUA_CANDIDATES read); else the domain itself, as before, with `receiving` false so the
 * screen says mail to it cannot arrive yet.
 */
export async function ruaDomain(project: Project, domain: string, receives: boolean): Promise<{ domain: string; receiving: boolean }> {
  if (receives) return { domain, receiving: true };
  try {
    const others = (await allDomains(project.externalId)).filter((d) => d.domain.toLowerCase() !== domain).slice(0, RUA_CANDIDATES);
    for (const other of others) {
      const state = await service.domains.receiving(project.externalId, other.id).catch(() => null);
      if (state?.enabled) return { domain: other.domain.toLowerCase(), receiving: true };
    }
  } catch (e) {
    // The suggestion is a convenience: the fallback below still lets the view load.
    console.warn(`dmarc: receiving domains: ${safeErrorSummary(e)}`);
  }
  return { domain, receiving: false };
}
