import type { DnsRecord } from "@/lib/schemas/domains";

/**
 * A domain's status when the service does not say it, or says less than its records do.
 *
 * The interface shows `status` only on the create answer; list items need not carry it, and
 * nothing defines how it moves. The records do say it: every record the interface gives is
 * one to publish, so a domain counts as verified once every sending record it lists is
 * verified (receiving MX records come from another operation and never hold it back). A
 * domain whose records are all verified is never shown pending, whatever an older status
 * word says; a failed one stays failed until the service says otherwise; with no records and
 * no word it is pending.
 */
export type DerivedDomainStatus = "pending" | "verified" | "failed" | (string & {});

const WORDS: Record<string, "pending" | "verified" | "failed"> = {
  pending: "pending", unverified: "pending", not_started: "pending", notstarted: "pending", in_progress: "pending", verifying: "pending",
  checking: "pending", temporary_failure: "pending", partially_verified: "pending", partial: "pending", waiting: "pending", new: "pending",
  verified: "verified", active: "verified", success: "verified", succeeded: "verified", valid: "verified", enabled: "verified", ok: "verified",
  failed: "failed", failure: "failed", invalid: "failed", error: "failed", not_verified: "failed", rejected: "failed", expired: "failed",
};

/** The service's word in the dashboard's terms (pending, verified, failed); an unknown word is kept as it came. */
export function domainStatusWord(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  const key = value.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return WORDS[key] ?? value.trim();
}

/** Every record verified, and at least one record: the domain is ready. */
export function recordsVerified(records: Pick<DnsRecord, "verified">[]): boolean {
  return records.length > 0 && records.every((r) => r.verified === true);
}

export function deriveDomainStatus(given: unknown, records: Pick<DnsRecord, "verified">[]): DerivedDomainStatus {
  const word = domainStatusWord(given);
  if (recordsVerified(records) && word !== "failed") return "verified";
  return word ?? "pending";
}
