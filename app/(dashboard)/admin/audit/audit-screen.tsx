"use client";

import { ScrollTextIcon } from "lucide-react";
import type { PlainAppError } from "@/lib/errors";
import type { AuditPage } from "@/lib/schemas/audit";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { TimelineResults } from "@/components/common/timeline-results";
import { Button } from "@/components/ui/button";
import { useUrlState } from "@/components/hooks/use-url-state";
import { AuditFiltersBar, type UserOption, type ProjectOption } from "./audit-filters";
import { ExportMenu } from "@/components/export/export-menu";
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
  const url = useUrlState();
  const filtered = Object.entries(filters).some(([k, v]) => k !== "cursor" && v);
  const rows = page?.data ?? [];

  return (
    <div className="space-y-5">
      <PageHeader
        title="Audit log"
        description="Every change made through the dashboard: who did it, to what, in which project, and whether it worked. Newest first."
        actions={<ExportMenu path="/api/admin/audit/export" query={{ q: filters.q, action: filters.action, actorId: filters.user, project: filters.project, outcome: filters.outcome, from: filters.from, to: filters.to }} />}
      />
      <AuditFiltersBar filters={filters} users={users} projects={projects} set={url.set} knownActions={rows.map((r) => r.action)} />
      <TimelineResults
        url={url}
        failure="The audit log could not be loaded"
        error={error}
        invalid={invalid}
        cursor={filters.cursor}
        next={page?.nextCursor}
        pager={{ label: "Audit log pages", next: "Older entries" }}
      >
        {rows.length === 0 ? (
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
                <Button variant="outline" onClick={() => url.set({ q: null, action: null, user: null, project: null, outcome: null, from: null, to: null })}>
                  Clear filters
                </Button>
              ) : undefined
            }
          />
        ) : (
          <AuditTable rows={rows} />
        )}
      </TimelineResults>
    </div>
  );
}
