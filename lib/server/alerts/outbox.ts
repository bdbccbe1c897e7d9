import "server-only";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { dueInOf } from "@/contract/db/due-gate";
import { AppError, isAppError } from "@/lib/errors";
import type { Level, Metric } from "@/lib/insight/thresholds";
import type { DestinationPolicy } from "@/contract/net/destination";
import type { Address } from "@/lib/schemas/common";
import { db, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { alertEvents } from "@/lib/server/db/schema/insight";
import { env } from "@/lib/server/env";
import { outboundPolicy } from "@/lib/server/http/outbound";
import { ALERT_TAG } from "@/lib/server/insight/alert-tag";
import { recordSentMessage } from "@/lib/server/message-index/record";
import { service } from "@/lib/server/service";
import { alertHtml, alertPayload, alertSubject, alertText, type AlertContent } from "./message";
import { webhookTarget } from "./settings";
import { postSigned } from "./webhook";

/**
 * Sends what the alert check put in the outbox (`alert_deliveries`): each row claimed under a
 * lease (FOR UPDATE SKIP LOCKED), so several dashboards share the work and one that dies
 * mid-send leaves the row to the next; each send carries the row's Idempotency-Key (derived
 * from the crossing), so a send repeated after a crash is answered, not sent again.
 *
 * Emails go through the service itself, POST /v1/emails on the alerting project, from
 * ALERT_FROM or `alerts@` the project's first verified domain; with neither, the row is
 * `skipped` and says why. Webhooks are signed per Standard Webhooks and made with
 * fetchPublic (public addresses only, unless the policy allows others).
 */
const LEASE_MS = 2 * 60_000;
/** Delays before attempts 2, 3, …; after the last, the row is `failed`. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 3_600_000];

export type OutboxOptions = { d?: Db; instance?: string; limit?: number; policy?: DestinationPolicy };
export type OutboxReport = { sent: number; failed: number; retrying: number; skipped: number };

type Claimed = { id: string; alertEventId: string; projectId: string; channel: string; target: string; idempotencyKey: string; attempts: number };

const ms = (n: number) => sql`(${String(Math.round(n))}::bigint * interval '1 millisecond')`;

async function claim(d: Db, instance: string, limit: number): Promise<Claimed[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await d.execute(sql`
      update alert_deliveries set claimed_by = ${instance}, lease_until = now() + ${ms(LEASE_MS)}
       where id in (
         select id from alert_deliveries
          where status = 'pending' and next_attempt_at <= now() and (claimed_by is null or lease_until < now())
          order by next_attempt_at limit ${String(limit)}::int
          for update skip locked)
      returning id, alert_event_id, project_id, channel, target, idempotency_key, attempts`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    alertEventId: String(r.alert_event_id),
    projectId: String(r.project_id),
    channel: String(r.channel),
    target: String(r.target),
    idempotencyKey: String(r.idempotency_key),
    attempts: Number(r.attempts),
  }));
}

/** How long until the next notification falls due (ms; null: none pending): the claim's condition as a time, for the due gate. */
export async function nextAlertDue(d: Db): Promise<number | null> {
  return dueInOf(
    rowsOf(
      await d.execute(sql`
        select (extract(epoch from min(greatest(next_attempt_at, case when claimed_by is not null then lease_until end)) - now()) * 1000)::float8 as in_ms
          from alert_deliveries where status = 'pending'`),
    ),
  );
}

async function contentOf(d: Db, row: Claimed): Promise<AlertContent & { projectId: string }> {
  const [found] = await d
    .select({ event: alertEvents, project: { id: projects.id, externalId: projects.externalId, name: projects.name } })
    .from(alertEvents)
    .innerJoin(projects, eq(projects.id, alertEvents.projectId))
    .where(eq(alertEvents.id, row.alertEventId))
    .limit(1);
  if (!found) throw new AppError(404, "not_found", "The alert of this notification is gone.");
  const e = found.event;
  return {
    projectId: found.project.id,
    projectExternalId: found.project.externalId,
    projectName: found.project.name,
    metric: e.metric as Metric,
    kind: e.kind,
    level: e.level as Level,
    previousLevel: e.previousLevel as Level,
    rate: e.rate,
    threshold: e.threshold,
    window: e.window,
    windows: e.windows,
    at: e.at,
  };
}

/** The sender of alert emails: ALERT_FROM, else `alerts@` a verified domain of the project (the oldest listed); null when neither exists. */
export async function alertSender(projectExternalId: string): Promise<Address | null> {
  const configured = env().ALERT_FROM;
  if (configured) return configured;
  const page = await service.domains.list(projectExternalId, { limit: 100 });
  const verified = page.data.filter((domain) => domain.status === "verified");
  const domain = verified[verified.length - 1];
  return domain ? { email: `alerts@${domain.domain}`, name: "Mail dashboard alerts" } : null;
}

/** fetchPublic refused the destination (a private address under the policy); by name, as bundles may hold two copies of the class. */
const refusedDestination = (e: unknown) => e instanceof Error && e.name === "DestinationBlockedError";

/** A refusal that trying again will not change (the destination, or the service saying no to this request itself). */
const permanent = (e: unknown) => refusedDestination(e) || (isAppError(e) && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429);

class Skip extends Error {}

async function sendEmail(row: Claimed, c: AlertContent & { projectId: string }): Promise<string> {
  const from = await alertSender(c.projectExternalId);
  if (!from) throw new Skip("Nothing could send it: the project has no verified domain and ALERT_FROM is not set.");
  const request = {
    from,
    to: [{ email: row.target }],
    subject: alertSubject(c),
    text: alertText(c),
    html: alertHtml(c),
    tags: [{ ...ALERT_TAG }],
  };
  const sent = await service.emails.send(c.projectExternalId, request, row.idempotencyKey);
  // The index learns of it as of anything the dashboard sends; insight leaves it out by its tag.
  await recordSentMessage({ projectId: c.projectId, messageId: sent.id, request, sentBy: null, idempotencyKey: row.idempotencyKey, source: "dashboard", status: sent.status });
  return sent.id;
}

async function sendWebhook(d: Db, row: Claimed, c: AlertContent & { projectId: string }, policy: DestinationPolicy | undefined): Promise<void> {
  const target = await webhookTarget(c.projectId, d);
  // Signed with the secret the URL has now (a rotation since the alert counts); a URL removed since is not called.
  if (!target || target.url !== row.target) throw new Skip("The webhook was removed or changed after this alert.");
  await postSigned(target.url, target.secret, row.id, JSON.stringify(alertPayload(c, row.id)), { policy });
}

async function settle(d: Db, row: Claimed, instance: string, outcome: { status: "sent"; messageId?: string } | { status: "failed" | "skipped"; error: string } | { status: "retry"; error: string; inMs: number }): Promise<void> {
  const mine = sql`id = ${row.id} and claimed_by = ${instance}`;
  if (outcome.status === "sent") {
    await d.execute(sql`update alert_deliveries set status = 'sent', attempts = attempts + 1, sent_at = now(), message_id = ${outcome.messageId ?? null}, last_error = null, claimed_by = null, lease_until = null where ${mine}`);
  } else if (outcome.status === "retry") {
    await d.execute(sql`update alert_deliveries set attempts = attempts + 1, last_error = ${outcome.error}, next_attempt_at = now() + ${ms(outcome.inMs)}, claimed_by = null, lease_until = null where ${mine}`);
  } else {
    await d.execute(sql`update alert_deliveries set status = ${outcome.status}, attempts = attempts + 1, last_error = ${outcome.error}, claimed_by = null, lease_until = null where ${mine}`);
  }
}

/** One pass over the due notifications. */
export async function sendDueAlerts(opts: OutboxOptions = {}): Promise<OutboxReport> {
  const d = opts.d ?? (await db());
  const instance = opts.instance ?? INSTANCE;
  const report: OutboxReport = { sent: 0, failed: 0, retrying: 0, skipped: 0 };
  for (;;) {
    const due = await claim(d, instance, opts.limit ?? 10);
    if (due.length === 0) return report;
    for (const row of due) {
      try {
        const content = await contentOf(d, row);
        let messageId: string | undefined;
        if (row.channel === "email") messageId = await sendEmail(row, content);
        else await sendWebhook(d, row, content, opts.policy ?? outboundPolicy());
        await settle(d, row, instance, { status: "sent", messageId });
        report.sent++;
      } catch (e) {
        const text = e instanceof Error ? e.message : String(e);
        if (e instanceof Skip) {
          await settle(d, row, instance, { status: "skipped", error: text });
          report.skipped++;
        } else if (permanent(e) || row.attempts >= RETRY_DELAYS_MS.length) {
          await settle(d, row, instance, { status: "failed", error: text });
          report.failed++;
          console.warn(`alerts: a ${row.channel} notification failed for good: ${text}`);
        } else {
          await settle(d, row, instance, { status: "retry", error: text, inMs: RETRY_DELAYS_MS[row.attempts]! });
          report.retrying++;
        }
      }
    }
  }
}

const INSTANCE = crypto.randomUUID();
