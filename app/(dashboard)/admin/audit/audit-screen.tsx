"use client";

import { useRouter } from "next/navigation";
import { ScrollTextIcon } from "lucide-react";
import type { PlainAppError } from "@/lib/errors";
import type { AuditPage } from "@/lib/schemas/audit";
import { PageHeader } from "@/components/common/page-header";
import { CursorPager } from "@/components/common/cursor-pager";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";
import { useUrlState } from "@/components/hooks/use-url-state";
import { cn } from "@/lib/utils";
import { AuditFiltersBar, type UserOption, type ProjectOption } from "./audit-filters";
import { AuditTable } from "./audit-table";
import type { AuditFilters } from "./audit-params";

export function AuditScreen({
  page,
  error,
  filters,
  invalid,
  users,
  projects,
}: {
  page: AuditPage | null;
  error: PlainAppError | null;
  filters: AuditFilters;
  invalid: { param: string; message: string }[];
  users: UserOption[];
  projects: ProjectOption[];
}) {
  const router = useRouter();
  const { set, isPending } = useUrlState();
  const filtered = Object.entries(filters).some(([k, v]) => k !== "cursor" && v);
  const rows = page?.data ?? [];
  const next = page?.nextCursor;

  return (
    <div className="space-y-5">
      <PageHeader title="Audit log" description="Every change made through the dashboard: who did it, to what, in which project, and whether it worked. Newest first." />
      <AuditFiltersBar filters={filters} users={users} projects={projects} set={set} knownActions={rows.map((r) => r.action)} />
      {invalid.length > 0 && (
        <p role="status" className="rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground">
          Ignored in the link: {invalid.map((i) => `${i.param} ${i.message}`).join("; ")}.
        </p>
      )}
      <div className={cn("space-y-3 transition-opacity", isPending && "opacity-60")} aria-busy={isPending || undefined}>
        {error ? (
          <ErrorState
            title="The audit log could not be loaded"
            error={error}
            onRetry={() => (error.param === "cursor" ? set({ cursor: null }) : router.refresh())}
          />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={ScrollTextIcon}
            title={filtered ? "No entry matches these filters" : "Nothing recorded yet"}
            description={
              filtered
                ? "Widen the date range or clear a filter."
                : "Sign-ins, user and project changes, sends, keys, webhooks and deletions appear here as they happen."
            }
            action={
              filtered ? (
                <Button variant="outline" onClick={() => set({ q: null, action: null, user: null, project: null, outcome: null, from: null, to: null })}>
                  Clear filters
                </Button>
              ) : undefined
            }
          />
        ) : (
          <AuditTable rows={rows} />
        )}
        <CursorPager
          variant="timeline"
          label="Audit log pages"
          next="Older entries"
          pending={isPending}
          onBack={filters.cursor ? () => set({ cursor: null }) : undefined}
          onNext={next ? () => set({ cursor: next }) : undefined}
        />
      </div>
    </div>
  );
}
