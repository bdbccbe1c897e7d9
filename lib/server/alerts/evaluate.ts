import "server-only";
import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import { LEVELS, levelRank, levelsOf, METRICS, nextLevel, type Level, type Metric, type Thresholds } from "@/lib/insight/thresholds";
import { recordAudit, SYSTEM_ACTOR, type AuditInput } from "@/lib/server/audit";
import { db, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { alertDeliveries, alertEvents, alertSettings, alertStates, type AlertWindowFigures } from "@/lib/server/db/schema/insight";
import { env } from "@/lib/server/env";
import { catchUpInsight } from "@/lib/server/insight/read";
import { projectTotals, type Totals } from "@/lib/server/insight/windows";
import { thresholdsOf, webhookTarget } from "./settings";

/**
 * The alert check: per project, the bounce rate (bounced ÷ sent) and the complaint rate
 * (complained ÷ delivered) over the rolling windows below, from insight's rollups. A metric's
 * level is the highest any window with enough volume (ALERT_MIN_VOLUME) reaches; going down
 * needs the rate a tenth under the threshold (thresholds.ts). A change of level is:
 *
 * 1. claimed by one conditional UPDATE of the metric's state (the level and episode as read),
 *    so of several dashboards on one database exactly one records it;
 * 2. recorded in the history (unique per project, metric and episode);
 * 3. notified through the outbox when it is a crossing upwards or a recovery — an email per
 *    admin of the project and the webhook — all in the same transaction.
 *
 * One check per database at a time (a transaction-level advisory lock; another dashboard
 * checking at that moment skips its turn).
 */
export const ALERT_WINDOWS = [
  { key: "24h", ms: 24 * 3_600_000, words: "the last 24 hours" },
  { key: "7d", ms: 7 * 24 * 3_600_000, words: "the last 7 days" },
] as const;
const LOCK_KEY = "7460312851010022";
/** More marked messages than this still waiting (a backfill, a bulk hand-over): the figures are not current, the check waits. */
export const BACKLOG_LIMIT = 10_000;

type Figures = AlertWindowFigures;
const METRIC_OF: Record<Metric, { count: (t: Totals) => number; volume: (t: Totals) => number }> = {
  bounce: { count: (t) => t.bounced, volume: (t) => t.sent },
  complaint: { count: (t) => t.complained, volume: (t) => t.delivered },
};

/** Where a metric stands now, and the level it moves to from `current`. */
export function judge(metric: Metric, current: Level, totals: Totals[], thresholds: Thresholds, minVolume: number): { level: Level; decider: Figures; windows: Figures[] } {
  const levels = levelsOf(metric, thresholds);
  const windows = ALERT_WINDOWS.map((w, i): Figures => {
    const t = totals[i]!;
    const volume = METRIC_OF[metric].volume(t);
    const count = METRIC_OF[metric].count(t);
    const rate = volume ? count / volume : null;
    const enough = volume >= minVolume;
    return { window: w.key, rate, count, volume, enough, level: enough ? nextLevel(current, rate, levels) : current };
  });
  const judged = windows.filter((w) => w.enough);
  if (judged.length === 0) return { level: current, decider: windows[0]!, windows };
  const decider = judged.reduce((best, w) => (levelRank(w.level) > levelRank(best.level) ? w : best));
  return { level: decider.level as Level, decider, windows };
}

/** The Idempotency-Key of one notification: the same crossing and target always make the same key. */
export function notificationKey(projectId: string, metric: string, episode: number, channel: string, target: string): string {
  const hash = createHash("sha256").update(target.toLowerCase()).digest("hex").slice(0, 16);
  return `dashboard-alert-${projectId}-${metric}-${episode}-${channel}-${hash}`;
}

/** Active admins who can open the project: they are the ones told. */
export async function projectAdmins(tx: Db, projectId: string): Promise<string[]> {
  const rows = rowsOf<{ email: string }>(
    await tx.execute(sql`
      select u.email from users u
       where u.role = 'admin' and u.active
         and (u.all_projects or exists (select 1 from user_projects up where up.user_id = u.id and up.project_id = ${projectId}))
       order by u.email`),
  );
  return rows.map((r) => r.email);
}

export type Change = { project: string; metric: Metric; from: Level; to: Level; episode: number; notified: number };
export type EvaluationReport = { skipped: false | "another check runs" | "the rollups are catching up"; projects: number; changes: Change[] };

type ProjectRef = { id: string; externalId: string; name: string };

async function evaluateProject(tx: Db, project: ProjectRef, now: Date, minVolume: number, audits: AuditInput[]): Promise<Change[]> {
  const [settings] = await tx.select().from(alertSettings).where(eq(alertSettings.projectId, project.id)).limit(1);
  const thresholds = thresholdsOf(settings ?? null);
  const totals = await projectTotals(project.id, ALERT_WINDOWS.map((w) => now.getTime() - w.ms), now, tx);
  const changes: Change[] = [];
  for (const metric of METRICS) {
    await tx.insert(alertStates).values({ projectId: project.id, metric }).onConflictDoNothing();
    const [state] = await tx
      .select()
      .from(alertStates)
      .where(and(eq(alertStates.projectId, project.id), eq(alertStates.metric, metric)))
      .for("update");
    const current = (LEVELS as readonly string[]).includes(state!.level) ? (state!.level as Level) : "ok";
    const { level, decider, windows } = judge(metric, current, totals, thresholds, minVolume);
    if (level === current) {
      await tx.update(alertStates).set({ windows, evaluatedAt: now }).where(and(eq(alertStates.projectId, project.id), eq(alertStates.metric, metric)));
      continue;
    }
    // The claim: only the evaluator that still sees the level and episode it read moves them.
    const claimed = await tx
      .update(alertStates)
      .set({ level, episode: state!.episode + 1, windows, since: now, evaluatedAt: now })
      .where(and(eq(alertStates.projectId, project.id), eq(alertStates.metric, metric), eq(alertStates.level, current), eq(alertStates.episode, state!.episode)))
      .returning({ episode: alertStates.episode });
    if (claimed.length === 0) continue;
    const episode = claimed[0]!.episode;
    const kind = levelRank(level) > levelRank(current) ? "raised" : level === "ok" ? "recovered" : "lowered";
    const notify = kind !== "lowered";
    const admins = notify ? await projectAdmins(tx, project.id) : [];
    // A secret that no longer opens (AUTH_SECRET changed) must not stop the emails.
    const webhook = notify
      ? await webhookTarget(project.id, tx).catch((e) => {
          console.warn(`alerts: the webhook of ${project.externalId} cannot be used: ${e instanceof Error ? e.message : String(e)}`);
          return null;
        })
      : null;
    const threshold = level === "ok" ? null : levelsOf(metric, thresholds)[level];
    const note = !notify
      ? "Lower, still above the warning level: recorded, not notified."
      : admins.length === 0 && !webhook
        ? "No admin can open this project and no webhook is set: nobody was notified."
        : null;
    const [event] = await tx
      .insert(alertEvents)
      .values({ projectId: project.id, metric, episode, level, previousLevel: current, kind, window: decider.window, rate: decider.rate, threshold, windows, note, at: now })
      .onConflictDoNothing()
      .returning({ id: alertEvents.id });
    if (!event) continue;
    const deliveries = [
      ...admins.map((email) => ({ channel: "email", target: email })),
      ...(webhook ? [{ channel: "webhook", target: webhook.url }] : []),
    ].map((d) => ({ ...d, alertEventId: event.id, projectId: project.id, idempotencyKey: notificationKey(project.id, metric, episode, d.channel, d.target) }));
    if (deliveries.length) await tx.insert(alertDeliveries).values(deliveries).onConflictDoNothing();
    changes.push({ project: project.externalId, metric, from: current, to: level, episode, notified: deliveries.length });
    audits.push({
      actor: SYSTEM_ACTOR,
      action: `alert.${kind}`,
      project: project.externalId,
      target: `${metric} rate`,
      outcome: "success",
      detail: { metric, level, previousLevel: current, window: decider.window, rate: decider.rate, threshold, episode, notifications: deliveries.length, note },
    });
  }
  return changes;
}

/** One check of every project; `skipped` says why not (another dashboard checking this database right now, or a large backlog). */
export async function evaluateAlerts(opts: { now?: Date; d?: Db } = {}): Promise<EvaluationReport> {
  const d = opts.d ?? (await db());
  const now = opts.now ?? new Date();
  const minVolume = env().ALERT_MIN_VOLUME;
  await catchUpInsight(d);
  const [backlog] = rowsOf<{ n: number }>(await d.execute(sql`select count(*)::int as n from (select 1 from insight_dirty limit ${String(BACKLOG_LIMIT + 1)}::int) x`));
  if (Number(backlog?.n ?? 0) > BACKLOG_LIMIT) return { skipped: "the rollups are catching up", projects: 0, changes: [] };
  const audits: AuditInput[] = [];
  const report = await d.transaction(async (tx): Promise<EvaluationReport> => {
    const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}::bigint) as locked`));
    if (!lock?.locked) return { skipped: "another check runs", projects: 0, changes: [] };
    const all = await tx.select({ id: projects.id, externalId: projects.externalId, name: projects.name }).from(projects).orderBy(asc(projects.createdAt));
    const changes: Change[] = [];
    for (const project of all) changes.push(...(await evaluateProject(tx, project, now, minVolume, audits)));
    return { skipped: false, projects: all.length, changes };
  });
  // After the commit: the audit log is written outside the check's transaction.
  for (const entry of audits) await recordAudit(entry).catch((e) => console.warn(`alerts: could not audit ${entry.action}: ${e instanceof Error ? e.message : String(e)}`));
  return report;
}
