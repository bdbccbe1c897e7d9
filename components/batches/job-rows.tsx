"use client";

import { useEffect, useRef } from "react";
import { Link } from "@/components/common/link";
import { useQuery } from "@tanstack/react-query";
import { BATCH_ROW_STATUSES } from "@/lib/schemas/words";
import { jobRowsQuery } from "@/lib/queries/batches";
import type { FirstRows, JobKind } from "@/lib/schemas/batch";
import { useUrlState } from "@/components/hooks/use-url-state";
import { StatusBadge } from "@/components/common/status-badge";
import { ErrorState } from "@/components/common/error-state";
import { TableSkeleton } from "@/components/common/table-skeleton";
import { CursorPager } from "@/components/common/cursor-pager";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/** What an outcome is called where the badge's own word would mislead (an address is added, not sent). */
const OUTCOME_WORDS: Partial<Record<JobKind, Partial<Record<string, string>>>> = {
  suppressions: { sent: "Added", suppressed: "Already suppressed", duplicate: "Repeated" },
};

/** Per-row outcomes, filtered by status and paged by row number, both in the URL. */
export function JobRows({ project, kind, jobId, running, linkMessages, initial }: { project: string; kind: JobKind; jobId: string; running: boolean; linkMessages: boolean; initial?: FirstRows }) {
  const { get, set } = useUrlState();
  const status = BATCH_ROW_STATUSES.includes(get("status") as never) ? get("status") : null;
  const after = Number(get("after")) || null;
  // The page rendered the rows of the URL it was opened with: those seed that filter's query only.
  const seeded = initial && initial.status === status && initial.after === after ? initial.page : undefined;
  const { data, error, refetch, isLoading } = useQuery({ ...jobRowsQuery(project, jobId, status, after, running, kind), initialData: seeded });
  // Rows are polled every 2 s while the job runs, and not once it is done: the last chunks'
  // outcomes, written after the last poll, would show as pending until a reload. Read once more.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void refetch();
    wasRunning.current = running;
  }, [running, refetch]);
  const next = data?.nextAfter;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="row-status" className="text-sm font-medium">
          Show
        </label>
        <select
          id="row-status"
          value={status ?? ""}
          onChange={(e) => set({ status: e.target.value || null, after: null })}
          className="h-9 rounded-md border bg-background px-2 text-sm"
        >
          <option value="">All rows</option>
          {BATCH_ROW_STATUSES.map((s) => (
            <option key={s} value={s}>
              {OUTCOME_WORDS[kind]?.[s]?.toLowerCase() ?? s}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <ErrorState compact error={error} onRetry={() => refetch()} />
      ) : isLoading || !data ? (
        <TableSkeleton columns={["w-10", "w-48", "w-20", "w-56"]} />
      ) : (
        <ListTable label="Rows of the job" columns={[{ label: "Row", className: "w-16" }, "Email", "Outcome", "Message or reason"]}>
          {data.data.map((r) => (
            <TableRow key={r.row} data-testid="job-row">
              <TableCell className="tabular-nums">{r.row}</TableCell>
              <TableCell className="max-w-xs truncate">{r.email || "—"}</TableCell>
              <TableCell>
                <StatusBadge status={r.status} label={OUTCOME_WORDS[kind]?.[r.status]} />
              </TableCell>
              <TableCell className="text-xs">
                {r.messageId ? (
                  linkMessages ? (
                    <Link className="font-mono underline-offset-4 hover:underline" href={`/p/${encodeURIComponent(project)}/messages/${encodeURIComponent(r.messageId)}`}>
                      {r.messageId}
                    </Link>
                  ) : (
                    <span className="font-mono">{r.messageId}</span>
                  )
                ) : r.error ? (
                  <span className="text-destructive dark:text-red-300">{r.error.message}</span>
                ) : (
                  "—"
                )}
              </TableCell>
            </TableRow>
          ))}
          {data.data.length === 0 && (
            <TableRow>
              <TableCell colSpan={4} className="py-6 text-center text-muted-foreground">
                No rows with this outcome.
              </TableCell>
            </TableRow>
          )}
        </ListTable>
      )}
      <CursorPager
        label="Row pages"
        className="justify-start"
        next="Next rows"
        onBack={after !== null ? () => set({ after: null }) : undefined}
        onNext={next != null ? () => set({ after: String(next) }) : undefined}
      />
    </div>
  );
}
