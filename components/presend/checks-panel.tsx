"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { CircleCheckIcon, LoaderIcon } from "lucide-react";
import type { Finding, FindingKind, PresendDraft, PresendResult } from "@/lib/schemas/presend";
import { FINDING_KINDS, SEVERITIES } from "@/lib/schemas/words";
import { presendQuery } from "@/lib/queries/presend";
import { formatBytes } from "@/components/common/format-bytes";
import { ErrorState } from "@/components/common/error-state";
import { Skeleton } from "@/components/ui/skeleton";
import { FindingItem } from "./finding-item";
import { LinksSection } from "./links-section";
import { SeverityBadge } from "./severity";
import { SpamSection } from "./spam-section";

const KIND_TITLES: Record<FindingKind, string> = {
  clients: "Email clients",
  size: "Size",
  links: "Links",
  images: "Images",
  dark: "Dark mode",
  text: "Text part and unsubscribe",
};

function KindSection({ kind, findings }: { kind: FindingKind; findings: Finding[] }) {
  const main = findings.filter((f) => f.severity !== "info");
  const notes = findings.filter((f) => f.severity === "info");
  const headingId = React.useId();
  return (
    <section aria-labelledby={headingId} data-testid={`findings-${kind}`}>
      <h3 id={headingId} className="text-sm font-semibold">
        {KIND_TITLES[kind]} <span className="font-normal text-muted-foreground">({findings.length})</span>
      </h3>
      {main.length > 0 && <ul className="divide-y">{main.map((f) => <FindingItem key={f.id} finding={f} />)}</ul>}
      {notes.length > 0 && (
        <details className="mt-1" open={main.length === 0 && notes.length <= 3}>
          <summary className="cursor-pointer text-xs text-muted-foreground select-none">
            {notes.length} {notes.length === 1 ? "note" : "notes"} (partial support and near limits)
          </summary>
          <ul className="divide-y">{notes.map((f) => <FindingItem key={f.id} finding={f} />)}</ul>
        </details>
      )}
    </section>
  );
}

export function ChecksSkeleton() {
  return (
    <div className="space-y-3" aria-hidden="true" data-testid="checks-skeleton">
      {[0, 1, 2].map((i) => (
        <div key={i} className="space-y-2">
          <Skeleton className="h-4 w-32" />
          <div className="flex gap-2">
            <Skeleton className="h-5 w-16" />
            <Skeleton className="h-5 flex-1" />
          </div>
          <Skeleton className="ml-[4.5rem] h-3 w-2/3" />
        </div>
      ))}
    </div>
  );
}

function Results({ project, result }: { project: string; result: PresendResult }) {
  const byKind = FINDING_KINDS.map((kind) => [kind, result.findings.filter((f) => f.kind === kind)] as const).filter(([, list]) => list.length > 0);
  const { sizes } = result;
  return (
    <div className="space-y-5">
      {result.findings.length === 0 ? (
        <p className="flex items-center gap-2 text-sm" data-testid="checks-clean">
          <CircleCheckIcon className="size-4 text-emerald-700 dark:text-emerald-300" aria-hidden="true" /> No problems found in the html, links, images, dark mode, size or text.
        </p>
      ) : (
        byKind.map(([kind, list]) => <KindSection key={kind} kind={kind} findings={list} />)
      )}
      <LinksSection project={project} links={result.links} />
      {result.spam && <SpamSection spam={result.spam} />}
      <p className="text-xs text-muted-foreground" data-testid="checks-sizes">
        HTML {formatBytes(sizes.htmlBytes)} · text {formatBytes(sizes.textBytes)} · attachments {formatBytes(sizes.attachmentsBytes)} · about {formatBytes(sizes.requestBytes)} to send
      </p>
    </div>
  );
}

type PanelProps = { project: string; draft: PresendDraft | null; title?: string; initial?: Promise<PresendResult | null> };

/**
 * "Will this render and land?" before sending: every finding of the pre-send checks, by
 * kind, with its place in the html; the links, checkable on demand; the spam score. Errors
 * are shown, never enforced: the send button stays the user's decision. `initial`: the page
 * shell's checks of this draft (see presend-checks.tsx).
 */
export function ChecksPanel({ title = "Pre-send checks", ...props }: PanelProps) {
  return (
    // While the page's checks of the opening draft stream in: the panel as it is while checking.
    <React.Suspense fallback={<PanelFrame title={title} busy><ChecksSkeleton /></PanelFrame>}>
      <Checks title={title} {...props} />
    </React.Suspense>
  );
}

function Checks({ project, draft, title, initial }: PanelProps & { title: string }) {
  const first = initial ? React.use(initial) : null;
  const query = useQuery({ ...presendQuery(project, draft), initialData: first ?? undefined });
  const counts = SEVERITIES.map((s) => [s, query.data?.findings.filter((f) => f.severity === s).length ?? 0] as const);
  const status = (
    <>
      {query.data && counts.filter(([, n]) => n > 0).map(([s, n]) => <SeverityBadge key={s} severity={s} count={n} />)}
      {query.isFetching && query.data && (
        <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
          <LoaderIcon className="size-3.5 animate-spin" aria-hidden="true" /> Checking again…
        </span>
      )}
    </>
  );
  return (
    <PanelFrame title={title} busy={query.isFetching} status={status}>
      {query.error && !query.data ? (
        <ErrorState compact title="The checks could not run" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : query.data ? (
        <>
          {query.error && <ErrorState compact title="Checking the latest changes failed; these results are for an earlier version" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />}
          <Results project={project} result={query.data} />
        </>
      ) : (
        <ChecksSkeleton />
      )}
    </PanelFrame>
  );
}

function PanelFrame({ title, busy, status, children }: { title: string; busy: boolean; status?: React.ReactNode; children: React.ReactNode }) {
  const headingId = React.useId();
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border bg-card p-4" data-testid="presend-checks" aria-busy={busy}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-base font-semibold">{title}</h2>
        {status}
      </div>
      {children}
    </section>
  );
}

export default ChecksPanel;
