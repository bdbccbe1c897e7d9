"use client";

import { useQuery } from "@tanstack/react-query";
import { BarChart } from "@/components/charts/bar-chart";
import { ErrorState } from "@/components/common/error-state";
import { EmptyState } from "@/components/common/empty-state";
import { StatusBadge } from "@/components/common/status-badge";
import { WarningNote } from "@/components/common/warning-note";
import { Skeleton } from "@/components/ui/skeleton";
import { domainDmarcQuery } from "@/lib/queries/domains";
import type { DmarcView } from "@/lib/schemas/dmarc";
import { DmarcSources } from "./dmarc-sources";

const SERIES = [
  { key: "pass", label: "Passing", color: "#059669" },
  { key: "fail", label: "Failing", color: "#dc2626" },
] as const;

/** The reports' figures, chart, advice and sources: loaded by DmarcSection when opened. */
export default function DmarcPanel({ project, id }: { project: string; id: string }) {
  const query = useQuery(domainDmarcQuery(project, id));
  if (query.error) return <ErrorState compact title="The DMARC reports could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  if (!query.data) return <Skeleton className="h-64" />;
  const view = query.data;
  return (
    <div className="space-y-4">
      <RuaState view={view} />
      {view.skipped.count > 0 && (
        <WarningNote>
          <span data-testid="dmarc-skipped">
            {view.skipped.count.toLocaleString()} report mail{view.skipped.count === 1 ? " was" : "s were"} not stored in the last {view.days} days: a cap on stored reports was reached. {view.skipped.latest}
          </span>
        </WarningNote>
      )}
      {view.reports === 0 ? (
        <EmptyState title="No reports yet" description={`No aggregate report for ${view.domain} arrived in the last ${view.days} days. Receivers send one a day once the rua address is published.`} />
      ) : (
        <>
          <p className="text-sm">
            Last {view.days} days: {view.reports.toLocaleString()} report{view.reports === 1 ? "" : "s"} covering {view.messages.toLocaleString()} messages, of which{" "}
            <strong>{view.messages ? ((view.passing / view.messages) * 100).toFixed(1) : "0"}%</strong> passed DMARC{view.policy ? ` (receivers saw p=${view.policy})` : ""}.
          </p>
          <p className="rounded-md border bg-card px-3 py-2 text-sm" data-testid="dmarc-advice">
            {view.advice.text}
          </p>
          <figure className="rounded-lg border bg-card p-4" aria-label="Messages passing and failing DMARC per day">
            <BarChart
              className="h-48 w-full"
              data={view.daily.map((d) => ({ key: d.day, label: shortDay(d.day), title: d.day, values: { pass: d.pass, fail: d.fail } }))}
              series={SERIES}
              label="Messages per day, by DMARC result"
              integer
              legend={SERIES}
            />
            <figcaption className="sr-only">Stacked bars of messages passing and failing DMARC per day (UTC), from the reports&apos; date ranges.</figcaption>
          </figure>
          <DmarcSources sources={view.sources} more={view.moreSources} />
        </>
      )}
    </div>
  );
}

function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}

function RuaState({ view }: { view: DmarcView }) {
  return (
    <>
      <RuaPlace view={view} />
      <RuaPublished view={view} />
    </>
  );
}

/** Where the address is, when not on this domain or not receiving yet. */
function RuaPlace({ view }: { view: DmarcView }) {
  const { rua } = view;
  if (!rua.receiving) {
    return (
      <WarningNote>
        <span>No domain of this project receives mail yet: reports sent to {rua.suggested} arrive once {view.domain} receives (its MX records under Receiving).</span>
      </WarningNote>
    );
  }
  if (!rua.authorization) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="dmarc-authorization">
      <p>
        {view.domain} does not receive mail, so the address is on a domain of this project that does: <span className="break-all font-mono">{rua.suggested}</span>. Receivers send reports
        to another domain only when it agrees: publish this TXT record there.
      </p>
      <p className="break-all rounded-md bg-muted px-2 py-1 font-mono text-xs">
        {rua.authorization.name} TXT &quot;{rua.authorization.value}&quot;
      </p>
    </div>
  );
}

function RuaPublished({ view }: { view: DmarcView }) {
  const { rua } = view;
  if (rua.lookupError) return <WarningNote>{rua.lookupError}</WarningNote>;
  if (!rua.published) {
    return (
      <WarningNote>
        {/* One text block beside the icon: the note lays out its children as flex items. */}
        <span>
          No DMARC record is published at _dmarc.{view.domain}. Publish <span className="break-all font-mono">v=DMARC1; p=none; rua=mailto:{rua.suggested}</span> to start receiving reports.
        </span>
      </WarningNote>
    );
  }
  return (
    <div className="space-y-1 text-sm">
      <p className="flex flex-wrap items-center gap-2">
        Published record:{" "}
        {rua.carries ? <StatusBadge status="verified" label={`Sends reports to ${rua.suggested}`} /> : <StatusBadge status="pending" label={`No rua for ${rua.suggested}`} />}
      </p>
      <p className="break-all rounded-md bg-muted px-2 py-1 font-mono text-xs">{rua.published}</p>
      {!rua.carries && (
        <p className="text-muted-foreground">
          Add <span className="break-all font-mono text-foreground">mailto:{rua.suggested}</span> to its <span className="font-mono">rua</span> tag (separate several addresses with commas).
        </p>
      )}
    </div>
  );
}
