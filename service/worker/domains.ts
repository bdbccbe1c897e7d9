import { eq } from "drizzle-orm";
import type { Deps } from "../context";
import { domains } from "../db/schema";
import { createResolver, checkRecords } from "../lib/dns-check";
import { allRequiredVerified, isSandboxDomain } from "../lib/domain-records";
import { enqueue, type JobHandler } from "./queue";

export const DOMAIN_CHECK = "domain.check";

export const isSandboxMode = (deps: Deps) => !deps.config.SERVICE_SMTP_URL;

/** Queues the first check of a new domain: sandbox names after one short step, others at once. */
export async function scheduleFirstCheck(deps: Deps, db: Pick<Deps["db"], "insert">, domainId: string, domain: string) {
  const delay = isSandboxMode(deps) && isSandboxDomain(domain) ? deps.config.SERVICE_SANDBOX_STEP_MS : 0;
  await enqueue(db, DOMAIN_CHECK, { domainId }, new Date(Date.now() + delay));
}

/**
 * One check of a domain's records. Sending records decide `verified`; the MX record
 * decides whether receiving is enabled. The check comes back every
 * SERVICE_DOMAIN_CHECK_INTERVAL_MS until both are done, and gives up at
 * SERVICE_DOMAIN_VERIFY_DEADLINE_MS after the domain was added: a domain still pending
 * then is `failed`. DNS errors are answers ("not there yet"), never job failures.
 */
export const checkDomain: JobHandler = async (deps, payload) => {
  const { db, config } = deps;
  const [row] = await db.select().from(domains).where(eq(domains.id, String(payload.domainId))).limit(1);
  if (!row || row.status === "failed" || (row.status === "verified" && row.receivingEnabled)) return;
  const now = new Date();

  if (isSandboxMode(deps) && isSandboxDomain(row.domain)) {
    await db.update(domains).set({
      status: "verified",
      records: row.records.map((r) => ({ ...r, verified: true })),
      receivingEnabled: true,
      receivingRecords: row.receivingRecords.map((r) => ({ ...r, verified: true })),
      lastCheckedAt: now,
    }).where(eq(domains.id, row.id));
    return;
  }

  const resolver = createResolver(config.SERVICE_DNS_RESOLVER);
  const [records, receivingRecords] = await Promise.all([
    row.status === "verified" ? row.records : checkRecords(resolver, row.records),
    checkRecords(resolver, row.receivingRecords),
  ]);
  const sendingDone = row.status === "verified" || allRequiredVerified(records);
  const receivingEnabled = receivingRecords.length > 0 && receivingRecords.every((r) => r.verified);
  const pastDeadline = now.getTime() - row.createdAt.getTime() >= config.SERVICE_DOMAIN_VERIFY_DEADLINE_MS;
  const status = sendingDone ? "verified" : pastDeadline ? "failed" : "pending";

  await db.update(domains).set({ status, records, receivingRecords, receivingEnabled, lastCheckedAt: now })
    .where(eq(domains.id, row.id));
  if ((status === "pending" || !receivingEnabled) && !pastDeadline) {
    await enqueue(db, DOMAIN_CHECK, { domainId: row.id }, new Date(now.getTime() + config.SERVICE_DOMAIN_CHECK_INTERVAL_MS));
  }
};
