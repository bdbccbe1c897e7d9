import "server-only";
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { levelsOf, type Level, type Metric } from "@/lib/insight/thresholds";
import type { ActiveAlert, ActiveAlertsView, AlertHistoryItem, AlertsView } from "@/lib/schemas/alerts";
import type { Project } from "@/lib/server/gate/access";
import { db } from "@/lib/server/db";
import { alertDeliveries, alertEvents, alertStates } from "@/lib/server/db/schema/insight";
import { env } from "@/lib/server/env";
import { redactUrl, redactUrlsIn } from "@/contract/log/redact-url";
import { getAlertSettings, projectThresholds } from "./settings";

/** What the screens show of alerts: the levels now (the banner), the history, the settings. */
const HISTORY_LIMIT = 50;

export async function activeAlerts(project: Project): Promise<ActiveAlertsView> {
  const d = await db();
  const [states, thresholds] = await Promise.all([
    d.select().from(alertStates).where(and(eq(alertStates.projectId, project.id), ne(alertStates.level, "ok"))),
    projectThresholds(project.id),
  ]);
  const active: ActiveAlert[] = states.flatMap((s) => {
    const level = s.level as Exclude<Level, "ok">;
    if (level !== "warning" && level !== "limit") return [];
    const metric = s.metric as Metric;
    // The window at the level (the first when several are).
    const window = s.windows.find((w) => w.enough && w.level === level) ?? s.windows.find((w) => w.enough) ?? s.windows[0];
    if (!window) return [];
    return [{ metric, level, since: s.since.toISOString(), window, threshold: levelsOf(metric, thresholds)[level] }];
  });
  // The limit first, then bounces before complaints.
  active.sort((a, b) => (a.level === b.level ? a.metric.localeCompare(b.metric) : a.level === "limit" ? -1 : 1));
  return { active };
}

export async function alertHistory(project: Project, limit = HISTORY_LIMIT): Promise<AlertHistoryItem[]> {
  const d = await db();
  const events = await d.select().from(alertEvents).where(eq(alertEvents.projectId, project.id)).orderBy(desc(alertEvents.at), desc(alertEvents.episode)).limit(limit);
  if (events.length === 0) return [];
  const deliveries = await d
    .select()
    .from(alertDeliveries)
    .where(inArray(alertDeliveries.alertEventId, events.map((e) => e.id)))
    .orderBy(alertDeliveries.channel, alertDeliveries.target);
  return events.map((e) => ({
    id: e.id,
    metric: e.metric as Metric,
    kind: e.kind as AlertHistoryItem["kind"],
    level: e.level,
    previousLevel: e.previousLevel,
    window: e.window,
    rate: e.rate,
    threshold: e.threshold,
    windows: e.windows,
    note: e.note,
    at: e.at.toISOString(),
    deliveries: deliveries
      .filter((x) => x.alertEventId === e.id)
      .map((x) => ({
        channel: x.channel as "email" | "webhook",
        // A webhook URL may carry credentials (userinfo, query, a path token): every reader sees them masked.
        target: x.channel === "webhook" ? redactUrl(x.target) : x.target,
        status: x.status,
        attempts: x.attempts,
        lastError: x.lastError === null ? null : redactUrlsIn(x.lastError),
        sentAt: x.sentAt?.toISOString() ?? null,
      })),
  }));
}

export async function getAlerts(project: Project): Promise<AlertsView> {
  const d = await db();
  const [active, states, history, settings] = await Promise.all([
    activeAlerts(project),
    d.select().from(alertStates).where(eq(alertStates.projectId, project.id)),
    alertHistory(project),
    getAlertSettings(project),
  ]);
  return {
    active: active.active,
    states: states.map((s) => ({ metric: s.metric as Metric, level: s.level, since: s.since.toISOString(), windows: s.windows, evaluatedAt: s.evaluatedAt.toISOString() })),
    history,
    settings,
    checkEverySeconds: env().ALERT_CHECK_INTERVAL_S,
  };
}
