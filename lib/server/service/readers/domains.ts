import { z } from "zod";
import type { DnsRecord, Domain, ReceivingState } from "@/lib/schemas/domains";
import { deriveDomainStatus } from "@/lib/domains/status";
import { boolReader, idReader, intReader, listOf, nullableText, text, timeReader } from "./common";

/**
 * A DNS record to publish. `verified` may be missing (read as not yet) or given as a status
 * word instead (`status: "verified"`); `priority` may be text; `purpose` may be missing.
 */
export const dnsRecordReader = z
  .object({
    type: text,
    name: nullableText,
    host: nullableText,
    value: text,
    priority: intReader,
    purpose: nullableText,
    verified: boolReader,
    status: nullableText,
  })
  .transform((r): DnsRecord => ({
    type: r.type.trim().toUpperCase(),
    name: r.name ?? r.host ?? "@",
    value: r.value,
    priority: r.priority ?? null,
    purpose: r.purpose ?? "",
    verified: r.verified ?? (r.status !== null && /^(verified|valid|active|success|ok)$/i.test(r.status.trim())),
  }));

const records = listOf(dnsRecordReader, "DNS record");

/**
 * A domain. Its status is always set: the service's word when it gives one, derived from the
 * records otherwise, and verified whenever every record is (lib/domains/status.ts).
 */
export const domainReader = z
  .object({ id: idReader, domain: text.optional(), name: text.optional(), status: z.unknown().optional(), records, createdAt: timeReader })
  .refine((d) => d.domain !== undefined || d.name !== undefined, { message: "a domain needs its `domain` name", path: ["domain"] })
  .transform((d): Domain => ({
    id: d.id,
    domain: (d.domain ?? d.name)!,
    status: deriveDomainStatus(d.status, d.records),
    records: d.records,
    createdAt: d.createdAt ?? "",
  }));

export const receivingReader = z
  .object({ enabled: boolReader, records })
  .transform((r): ReceivingState => ({ enabled: r.enabled ?? false, records: r.records }));
