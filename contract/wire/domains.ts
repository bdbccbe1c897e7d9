import { z } from "zod";
import { DOMAIN_STATUSES } from "./words";

export { DOMAIN_STATUSES };

export const domainStatus = z.enum(DOMAIN_STATUSES, { error: "must be pending, verified or failed" });
export type DomainStatus = z.infer<typeof domainStatus>;

/** A hostname as a DNS panel accepts it: labels of letters, digits and dashes, at least two. */
const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
export const hostname = z
  .string({ error: "is required" })
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/\.$/, ""))
  .pipe(z.string().regex(HOSTNAME, { error: "must be a hostname like mail.example.com" }));

export const dnsRecord = z.object({
  type: z.string(),
  name: z.string(),
  value: z.string(),
  priority: z.number().int().nullable().optional(),
  purpose: z.string(),
  verified: z.boolean().optional().default(false),
});
export type DnsRecord = z.infer<typeof dnsRecord>;

export const domain = z.object({
  id: z.string(),
  domain: z.string(),
  /** The list operation of the interface omits it; the create operation carries it. */
  status: z.string().optional(),
  records: z.array(dnsRecord).default([]),
  createdAt: z.string(),
});
export type Domain = z.infer<typeof domain>;

export const domainListQuery = z.object({ status: domainStatus.optional() });

export const receivingState = z.object({ enabled: z.boolean(), records: z.array(dnsRecord).default([]) });
export type ReceivingState = z.infer<typeof receivingState>;
