import "server-only";
import { AppError } from "@/lib/errors";
import { checkRecords } from "@/lib/server/domains/dns-check";
import type { z } from "zod";
import type { domainInput } from "@/lib/domains/hostname";
import { MAX_PAGE_SIZE, type Page } from "@/lib/schemas/common";
import { type Domain, type DomainStatus } from "@/lib/schemas/domains";
import type { DomainCheck, DomainDetail } from "@/lib/schemas/domains-view";
import { withAudit } from "../audit";
import { env } from "../env";
import type { Actor, Project } from "../gate/guard";
import { service } from "../service/index";

/** The page shell hands the first answer to the screen. */
export type { DomainCheck, DomainDetail };

export async function listDomains(project: Project, query: { cursor?: string; limit?: number; status?: DomainStatus }): Promise<Page<Domain>> {
  return service.domains.list(project.externalId, query);
}

export async function addDomain(actor: Actor, project: Project, { domain }: z.output<typeof domainInput>): Promise<Domain> {
  return withAudit({ actor, action: "domain.create", project: project.externalId, target: domain }, () =>
    service.domains.add(project.externalId, domain),
  );
}

/** How many pages of 100 are searched for one domain before giving up (10,000 domains). */
const FIND_PAGES = 100;

/**
 * The interface has no "get domain": a domain is found by paging through the list. The
 * list is ordered newest first and stable while domains are added, so paging never skips
 * one; a project with more than FIND_PAGES × 100 domains is unlikely enough to refuse.
 */
export async function findDomain(project: Project, id: string): Promise<Domain> {
  let cursor: string | undefined;
  for (let i = 0; i < FIND_PAGES; i++) {
    const page = await service.domains.list(project.externalId, { limit: MAX_PAGE_SIZE, cursor });
    const found = page.data.find((d) => d.id === id);
    if (found) return found;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  throw new AppError(404, "not_found", "This domain is not in the project (it may belong to another one).");
}

export async function getDomainDetail(project: Project, id: string): Promise<DomainDetail> {
  const domain = await findDomain(project, id);
  try {
    const receiving = await service.domains.receiving(project.externalId, id);
    return { domain, receiving, receivingError: null };
  } catch (e) {
    // The sending records are still worth showing when the receiving state cannot be read.
    return { domain, receiving: null, receivingError: e instanceof AppError ? e.message : "The receiving state could not be read." };
  }
}

/**
 * Every domain of a project, by the external id (the DMARC job has no guard's Project), paged
 * through the list like findDomain and bounded the same way: FIND_PAGES pages of 100.
 */
export async function allDomains(externalId: string): Promise<Domain[]> {
  const out: Domain[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < FIND_PAGES; i++) {
    const page = await service.domains.list(externalId, { limit: MAX_PAGE_SIZE, cursor });
    out.push(...page.data);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

/** The live DNS comparison, run from the dashboard's server with its resolver (DNS_RESOLVER). */
export async function checkDomain(project: Project, id: string): Promise<DomainCheck> {
  return checkDomainDetail(await getDomainDetail(project, id));
}

/** The same check of a domain already read (the page shell has it, and hands the first check to the screen). */
export async function checkDomainDetail({ domain, receiving }: DomainDetail): Promise<DomainCheck> {
  const resolver = env().DNS_RESOLVER;
  const records = [...domain.records, ...(receiving?.records ?? [])];
  const results = await checkRecords(records, { resolver, domain: domain.domain });
  return { checkedAt: new Date().toISOString(), resolver: resolver ?? "system resolver", records: results };
}
