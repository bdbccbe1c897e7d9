"use client";

import { Link } from "@/components/common/link";
import { keepPreviousData } from "@tanstack/react-query";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { GlobeIcon } from "lucide-react";
import type { Domain, DomainStatus } from "@/lib/schemas/domains";
import type { Page } from "@/lib/schemas/common";
import { DOMAIN_STATUSES } from "@/lib/schemas/words";
import { domainsQuery } from "@/lib/queries/domains";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { TableSkeleton } from "@/components/common/table-skeleton";
import { Button } from "@/components/ui/button";
import { PagedList } from "@/components/common/paged-list";
import { FilterSelect } from "@/components/common/filter-select";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { useUrlState } from "@/components/hooks/use-url-state";
import { projectHref } from "@/lib/nav";
import { AddDomainDialog } from "./add-domain-dialog";

/** The project's sending domains; status filter and cursor live in the URL. */
export function DomainsScreen({ project, initial }: { project: string; initial: FirstLoad<Page<Domain>> }) {
  const { get, set } = useUrlState();
  const status = (DOMAIN_STATUSES as readonly string[]).includes(get("status") ?? "") ? (get("status") as DomainStatus) : null;
  const cursor = get("cursor");
  const query = useFirstLoadQuery({ ...domainsQuery(project, status, cursor), initialData: initial.data, placeholderData: keepPreviousData }, initial.error);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Domains"
        description="Domains this project sends from, and the DNS records each one needs before mail from it is accepted."
        actions={<AddDomainDialog project={project} />}
      />
      <div className="flex flex-wrap items-center gap-2">
        <FilterSelect
          label="Filter by status"
          className="w-44"
          value={status ?? undefined}
          onChange={(v) => set({ status: v })}
          anyLabel="Any status"
          options={DOMAIN_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))}
        />
      </div>
      <PagedList
        query={query}
        failure="The domains could not be loaded"
        skeleton={<TableSkeleton columns={["w-48", "w-20", "w-24", "w-24"]} rows={4} />}
        empty={
          <EmptyState
            icon={GlobeIcon}
            title={status ? `No ${status} domains` : cursor ? "No more domains" : "No domains yet"}
            description={status ? "Change the filter to see the other domains." : "Add the domain you send from; the records to publish appear right after."}
            action={status || cursor ? <Button variant="outline" onClick={() => set({ status: null, cursor: null })}>Show all domains</Button> : <AddDomainDialog project={project} />}
          />
        }
      >
        {(rows) => (
          <>
            {query.error && <ErrorState compact title="The list could not be refreshed" error={query.error} onRetry={() => query.refetch()} />}
            <ListTable label="Domains" columns={["Domain", "Status", "Records verified", "Added"]}>
              {rows.map((d) => (
                <TableRow key={d.id}>
                  <TableCell>
                    <Link className="font-medium underline-offset-4 hover:underline" href={`${projectHref(project, "domains")}/${encodeURIComponent(d.id)}`}>
                      {d.domain}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <StatusBadge status={d.status ?? "pending"} />
                  </TableCell>
                  <TableCell className="text-sm text-muted-foreground">
                    {d.records.filter((r) => r.verified).length} of {d.records.length}
                  </TableCell>
                  <TableCell>
                    <RelativeTime value={d.createdAt} />
                  </TableCell>
                </TableRow>
              ))}
            </ListTable>
          </>
        )}
      </PagedList>
    </div>
  );
}
