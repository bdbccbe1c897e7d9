"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { domainCheckQuery } from "@/lib/queries/domains";
import type { DomainCheck, RecordCheck } from "@/lib/schemas/domains-view";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";

const STATUS: Record<RecordCheck["status"], { status: string; label: string }> = {
  ok: { status: "verified", label: "Matches" },
  missing: { status: "pending", label: "Not found" },
  mismatch: { status: "failed", label: "Wrong" },
  error: { status: "delayed", label: "Lookup failed" },
};

/** Re-check every 15 s while the domain is pending; on demand otherwise. */
const PENDING_INTERVAL_MS = 15_000;

/**
 * What DNS answers now, record by record, next to what is expected — looked up by the
 * dashboard's own server, so it shows what the internet sees rather than the admin's cache.
 * The first check comes from the page shell (`initial`, streamed): the screen's first load
 * neither asks for it nor loads the answer's parser (components/common/first-load.test.ts).
 */
export function DnsCheckPanel({ project, id, pending, initial }: { project: string; id: string; pending: boolean; initial?: Promise<DomainCheck | null> }) {
  return (
    <section aria-labelledby="dns-check-title" className="space-y-3">
      <React.Suspense fallback={<CheckView pending={pending} fetching />}>
        <LiveCheck project={project} id={id} pending={pending} initial={initial} />
      </React.Suspense>
    </section>
  );
}

function LiveCheck({ project, id, pending, initial }: { project: string; id: string; pending: boolean; initial?: Promise<DomainCheck | null> }) {
  const first = initial ? React.use(initial) : null;
  const query = useQuery({ ...domainCheckQuery(project, id), initialData: first ?? undefined, refetchInterval: pending ? PENDING_INTERVAL_MS : false });
  return <CheckView pending={pending} data={query.data} error={query.error} fetching={query.isFetching} onCheck={() => query.refetch()} />;
}

/** The panel's content for a check: its answer, its error, or (also while the page's first check streams in) skeletons. */
function CheckView({ pending, data, error, fetching, onCheck }: { pending: boolean; data?: DomainCheck; error?: Error | null; fetching: boolean; onCheck?: () => void }) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="dns-check-title" className="text-base font-semibold">
            Live DNS check
          </h2>
          <p className="text-sm text-muted-foreground">
            {data ? (
              <>
                Checked <RelativeTime value={data.checkedAt} /> through {data.resolver}
                {pending ? "; checking again by itself while the domain is pending." : "."}
              </>
            ) : (
              "Looking the records up in DNS…"
            )}
          </p>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={onCheck} pending={fetching}>
          <RefreshCwIcon aria-hidden="true" />
          Check now
        </Button>
      </div>
      {error && !data ? (
        <ErrorState compact title="The DNS check could not run" error={error} onRetry={onCheck} retrying={fetching} />
      ) : !data ? (
        <div className="space-y-2" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : (
        <ul className="divide-y rounded-lg border">
          {data.records.map((r, i) => (
            <li key={`${r.name}-${r.record.type}-${i}`} className="grid gap-2 p-3 text-sm md:grid-cols-[9rem_1fr]" data-check-status={r.status}>
              <div className="space-y-1">
                <StatusBadge status={STATUS[r.status].status} label={STATUS[r.status].label} />
                <p className="font-mono text-xs text-muted-foreground">{r.record.type.toUpperCase()}</p>
              </div>
              <div className="min-w-0 space-y-1">
                <p className="truncate font-mono text-xs" title={r.name}>
                  {r.name}
                </p>
                <dl className="grid grid-cols-[5.5rem_1fr] gap-x-2 gap-y-0.5 text-xs">
                  <dt className="text-muted-foreground">Expected</dt>
                  <dd className="truncate font-mono" title={r.record.value}>
                    {r.record.priority != null && r.record.type.toUpperCase() === "MX" ? `${r.record.priority} ` : ""}
                    {r.record.value}
                  </dd>
                  <dt className="text-muted-foreground">Published</dt>
                  <dd className="min-w-0 font-mono">
                    {r.found.length === 0 ? (
                      <span className="text-muted-foreground">nothing</span>
                    ) : (
                      r.found.map((f, j) => (
                        <span key={j} className="block truncate" title={f}>
                          {f}
                        </span>
                      ))
                    )}
                  </dd>
                </dl>
                {r.problems.length > 0 && (
                  <ul className="list-disc space-y-0.5 pl-5 text-xs text-destructive dark:text-red-300">
                    {r.problems.map((p, j) => (
                      <li key={j}>{p}</li>
                    ))}
                  </ul>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
