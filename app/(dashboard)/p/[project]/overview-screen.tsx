"use client";

import { Link } from "@/components/common/link";
import type { FirstLoad } from "@/components/common/first-load";
import { OVERVIEW_RANGES, RANGE_LABELS } from "@/lib/insight/ranges";
import type { OverviewData } from "@/lib/schemas/overview";
import { overviewQuery } from "@/lib/queries/overview";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { CopyableText } from "@/components/common/copy-button";
import { usePeriodQuery } from "@/components/insight/use-period-query";
import { PeriodScreen } from "@/components/insight/period-screen";
import { CountCell, ListTable, numberColumns } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { projectHref } from "@/lib/nav";
import { OverviewLinks } from "./overview-links";
import { OverviewNumbers } from "./overview-numbers";
import { OverviewChart } from "./overview-chart";
import { StreamStatusLine } from "./stream-status-line";

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2 rounded-lg border bg-card p-4" aria-label={title}>
      <h2 className="text-sm font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** "Is our mail healthy?": volumes and rates from the message index, plus what needs attention. */
export function OverviewScreen({ project, projectName, initial }: { project: string; projectName: string; initial: FirstLoad<OverviewData> }) {
  const { range, setRange, query } = usePeriodQuery((r) => overviewQuery(project, r), initial);
  return (
    <PeriodScreen
      header={{
        eyebrow: "Project",
        title: projectName,
        description: (
          <span className="inline-flex flex-wrap items-center gap-1">
            How this project&apos;s mail is doing, from the messages the dashboard has seen. Project id <CopyableText value={project} label="project id" />
          </span>
        ),
      }}
      period={{ range, setRange }}
      query={query}
      failure="The overview could not be loaded"
      loading="Loading the overview"
    >
      {(data) => (
        <>
          {data.stream && <StreamStatusLine project={project} status={data.stream} />}
          <OverviewNumbers counts={data.counts[range]} engagement={data.engagement[range]} thresholds={data.thresholds} />
          <OverviewChart series={data.series} range={data.range} />
          <ListTable label="Volumes by period" columns={["Period", ...numberColumns("Sent", "Delivered", "Bounced", "Complained", "Rejected", "Opened", "Clicked")]}>
            {OVERVIEW_RANGES.map((r) => {
              const c = { ...data.counts[r], ...data.engagement[r] };
              return (
                <TableRow key={r} data-period={r}>
                  <TableCell>{RANGE_LABELS[r]}</TableCell>
                  {(["sent", "delivered", "bounced", "complained", "rejected", "opened", "clicked"] as const).map((k) => (
                    <CountCell key={k} metric={k} value={c[k]} />
                  ))}
                </TableRow>
              );
            })}
          </ListTable>
          <OverviewLinks links={data.topLinks} period={RANGE_LABELS[data.range]} />
          <div className="grid gap-4 lg:grid-cols-3">
            <Panel title="Domains not verified">
              {data.domainsError ? (
                <p className="text-sm text-destructive dark:text-red-300">{data.domainsError}</p>
              ) : data.unverifiedDomains.length === 0 ? (
                <p className="text-sm text-muted-foreground">Every domain is verified.</p>
              ) : (
                <ul className="space-y-1.5">
                  {data.unverifiedDomains.map((d) => (
                    <li key={d.id} className="flex items-center justify-between gap-2 text-sm">
                      <Link className="truncate underline-offset-4 hover:underline" href={`${projectHref(project, "domains")}/${encodeURIComponent(d.id)}`}>
                        {d.domain}
                      </Link>
                      <StatusBadge status={d.status ?? "pending"} />
                    </li>
                  ))}
                </ul>
              )}
            </Panel>
            <Panel title="Scheduled sends coming up">
              {data.scheduled.length === 0 ? (
                <p className="text-sm text-muted-foreground">Nothing is scheduled.</p>
              ) : (
                <ul className="space-y-1.5">
                  {data.scheduled.map((m) => (
                    <li key={m.id} className="text-sm">
                      <Link className="block truncate underline-offset-4 hover:underline" href={`${projectHref(project, "messages")}/${encodeURIComponent(m.id)}`}>
                        {m.subject ?? "(no subject)"}
                      </Link>
                      <span className="text-xs text-muted-foreground">
                        to {m.to[0] ?? "—"}
                        {m.to.length > 1 ? ` and ${m.to.length - 1} more` : ""} · <RelativeTime value={m.scheduledAt} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Panel>
            <Panel title="Recent activity">
              {data.activity.length === 0 ? (
                <p className="text-sm text-muted-foreground">No changes recorded for this project yet.</p>
              ) : (
                <ul className="space-y-1.5">
                  {data.activity.map((a) => (
                    <li key={a.id} className="text-sm">
                      <span className="font-mono text-xs">{a.action}</span>
                      {a.target && <span className="ml-1 break-all">{a.target}</span>}
                      {a.outcome === "failure" && <span className="ml-1 text-xs text-destructive dark:text-red-300">(failed)</span>}
                      <span className="block text-xs text-muted-foreground">
                        {a.actorEmail} · <RelativeTime value={a.at} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Panel>
          </div>
        </>
      )}
    </PeriodScreen>
  );
}
