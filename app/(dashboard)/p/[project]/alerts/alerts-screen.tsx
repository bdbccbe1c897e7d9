"use client";

import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { METRICS, METRIC_WORDS, formatRate, formatThreshold, levelsOf, type Level, type Metric } from "@/lib/insight/thresholds";
import type { AlertsView } from "@/lib/schemas/alerts";
import { alertsQuery } from "@/lib/queries/insight";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { LevelBadge } from "@/components/insight/level-badge";
import { useShell } from "@/components/shell/shell-context";
import { AlertHistory } from "./alert-history";
import { AlertSettings } from "./alert-settings";

const WINDOW_LABELS: Record<string, string> = { "24h": "Last 24 hours", "7d": "Last 7 days" };

function StateCard({ metric, view }: { metric: Metric; view: AlertsView }) {
  const words = METRIC_WORDS[metric];
  const state = view.states.find((s) => s.metric === metric);
  const s = view.settings;
  const levels = levelsOf(metric, {
    bounceWarning: s.bounceWarning / 100,
    bounceLimit: s.bounceLimit / 100,
    complaintWarning: s.complaintWarning / 100,
    complaintLimit: s.complaintLimit / 100,
  });
  const level = (state?.level ?? "ok") as Level;
  return (
    <section className="space-y-3 rounded-lg border bg-card p-4" aria-label={words.label} data-metric={metric} data-level={level}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{words.label}</h2>
        <LevelBadge level={level} />
      </div>
      <p className="text-xs text-muted-foreground">
        {words.count[0]!.toUpperCase() + words.count.slice(1)} ÷ {words.denominator}. Warning at {formatThreshold(levels.warning)}, limit {formatThreshold(levels.limit)}.
      </p>
      {!state ? (
        <p className="text-sm text-muted-foreground">Not checked yet: the check runs every {view.checkEverySeconds} seconds.</p>
      ) : (
        <>
          <ul className="space-y-1 text-sm">
            {state.windows.map((w) => (
              <li key={w.window} className="flex flex-wrap justify-between gap-x-3" data-window={w.window}>
                <span className="text-muted-foreground">{WINDOW_LABELS[w.window] ?? w.window}</span>
                <span className="tabular-nums">
                  {w.enough ? (
                    <>
                      <span className="font-medium">{formatRate(w.rate)}</span> ({w.count.toLocaleString()} of {w.volume.toLocaleString()})
                    </>
                  ) : (
                    `too few to judge (${w.volume.toLocaleString()} of ${view.settings.minVolume.toLocaleString()} needed)`
                  )}
                </span>
              </li>
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            {level === "ok" ? "Within the thresholds" : "At this level"} since <RelativeTime value={state.since} />; checked <RelativeTime value={state.evaluatedAt} />.
          </p>
        </>
      )}
    </section>
  );
}

/** "Tell us before a provider blocks us": where the rates stand, the thresholds, and every alert so far. */
export function AlertsScreen({ project, initial }: { project: string; initial: FirstLoad<AlertsView> }) {
  const query = useFirstLoadQuery({ ...alertsQuery(project), initialData: initial.data }, initial.error);
  const { can } = useShell();
  const data = query.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Alerts"
        description={
          data
            ? `The bounce and complaint rates over the last 24 hours and 7 days, checked every ${data.checkEverySeconds} seconds. Crossing the warning level or the limit shows a banner on every screen of this project and emails its admins, once per crossing and once when it recovers.`
            : "The bounce and complaint rates, checked continuously against the thresholds."
        }
      />
      {query.error && !data ? (
        <ErrorState title="The alerts could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <div className="h-96 animate-pulse rounded-lg bg-muted" role="status" aria-busy="true" aria-label="Loading the alerts" />
      ) : (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            {METRICS.map((m) => (
              <StateCard key={m} metric={m} view={data} />
            ))}
          </div>
          <AlertSettings project={project} settings={data.settings} canEdit={can("alerts:write")} />
          <AlertHistory items={data.history} canEdit={can("alerts:write")} />
        </>
      )}
    </div>
  );
}
