"use client";

import type * as React from "react";
import { Link } from "@/components/common/link";
import type { LucideIcon } from "lucide-react";
import type { PlainAppError } from "@/lib/errors";
import { RANGE_LABELS, type OverviewRange } from "@/lib/insight/ranges";
import { projectHref } from "@/lib/nav";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { EmptyState } from "@/components/common/empty-state";
import { Button } from "@/components/ui/button";
import { PeriodPicker } from "./period-picker";

/**
 * An insight screen (Overview, Deliverability, Tags): its header with the period picker, then
 * its figures — or, until it has them, the error with Retry (only while there is nothing to
 * show: a failed refresh keeps the figures) or a placeholder; or, when the period holds nothing
 * to count, why, with the way to send some mail.
 */
export function PeriodScreen<TData>({
  header,
  period,
  query,
  failure,
  loading,
  empty,
  children,
}: {
  header: Omit<React.ComponentProps<typeof PageHeader>, "actions">;
  period: { range: OverviewRange; setRange: (range: OverviewRange) => void };
  query: { data: TData | undefined; error: Error | PlainAppError | null; isFetching: boolean; refetch: () => unknown };
  /** The error's title, e.g. "The tag figures could not be loaded". */
  failure: string;
  /** The placeholder's accessible name, e.g. "Loading the tag figures". */
  loading: string;
  /** When the period has nothing to count: `title` is given the period's name in lower case ("last 7 days"). */
  empty?: { project: string; when: (data: TData) => boolean; icon: LucideIcon; title: (period: string) => string; description: string };
  children: (data: TData) => React.ReactNode;
}) {
  const data = query.data;
  return (
    <div className="space-y-6">
      <PageHeader {...header} actions={<PeriodPicker value={period.range} onChange={period.setRange} />} />
      {query.error && !data ? (
        <ErrorState title={failure} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <div className="h-96 animate-pulse rounded-lg bg-muted" role="status" aria-busy="true" aria-label={loading} />
      ) : empty?.when(data) ? (
        <EmptyState
          icon={empty.icon}
          title={empty.title(RANGE_LABELS[period.range].toLowerCase())}
          description={empty.description}
          action={
            <Button asChild size="sm">
              <Link href={projectHref(empty.project, "compose")}>Compose a message</Link>
            </Button>
          }
        />
      ) : (
        children(data)
      )}
    </div>
  );
}
