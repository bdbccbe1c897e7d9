import { and, asc, eq, inArray } from "drizzle-orm";
import { domainToASCII } from "node:url";
import type { Db } from "../db/client";
import { domains } from "../db/schema";

type Reader = Pick<Db, "select">;

/** The ASCII (punycode) hostname of an address's domain part, or null when it has none. */
export function addressDomain(address: string): string | null {
  const at = address.lastIndexOf("@");
  if (at < 0) return null;
  const host = domainToASCII(address.slice(at + 1).trim().toLowerCase().replace(/\.$/, ""));
  return host || null;
}

/** `a.b.example.com` → [a.b.example.com, b.example.com, example.com]: a domain and its parents (two labels at least). */
export function domainAndParents(host: string): string[] {
  const labels = host.split(".");
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join("."));
  return out;
}

/**
 * Whether the project may send from this address: its domain, or a parent of it, is a
 * verified domain of the project (verifying example.com covers mail.example.com, as the
 * DKIM key and SPF of the parent domain align with the subdomain under relaxed DMARC).
 */
export async function isSendingDomainVerified(db: Reader, projectId: string, emailAddress: string): Promise<boolean> {
  const host = addressDomain(emailAddress);
  if (!host) return false;
  const rows = await db.select({ id: domains.id }).from(domains)
    .where(and(eq(domains.projectId, projectId), eq(domains.status, "verified"), inArray(domains.domain, domainAndParents(host))))
    .limit(1);
  return rows.length > 0;
}

/**
 * The project that receives mail for this address: a domain with receiving enabled and
 * exactly the address's domain (MX records are per hostname, so parents do not count).
 * Should two projects enable the same hostname, the one that added it first receives.
 */
export async function receivingDomainFor(db: Reader, address: string): Promise<{ projectId: string; domainId: string } | null> {
  const host = addressDomain(address);
  if (!host) return null;
  const [row] = await db.select({ projectId: domains.projectId, domainId: domains.id }).from(domains)
    .where(and(eq(domains.domain, host), eq(domains.receivingEnabled, true)))
    .orderBy(asc(domains.id))
    .limit(1);
  return row ?? null;
}
