import { z } from "zod";
import { page, pageQuery } from "./common";
import { dnsRecord, domain, domainListQuery, receivingState } from "./domains";

/** `?cursor&limit&status` of the domains list. */
export const domainsPageQuery = pageQuery.extend(domainListQuery.shape);

/**
 * Our API's answers about domains (/api/p/[project]/domains…), built from the wire shapes in
 * domains.ts: the list, one domain with its receiving state, and the live DNS check.
 */
export const domainList = page(domain);

export const domainDetail = z.object({
  domain,
  receiving: receivingState.nullable(),
  /** Why the receiving state could not be read; the sending records are shown anyway. */
  receivingError: z.string().nullable(),
});
export type DomainDetail = z.infer<typeof domainDetail>;

export const CHECK_STATUSES = ["ok", "missing", "mismatch", "error"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** One record the service asks for, against what DNS publishes now (lib/server/domains/dns-check.ts). */
export const recordCheck = z.object({
  record: dnsRecord,
  /** The full name that was looked up. */
  name: z.string(),
  status: z.enum(CHECK_STATUSES),
  found: z.array(z.string()),
  problems: z.array(z.string()),
});
export type RecordCheck = z.infer<typeof recordCheck>;

export const domainCheck = z.object({ checkedAt: z.string(), resolver: z.string(), records: z.array(recordCheck) });
export type DomainCheck = z.infer<typeof domainCheck>;
