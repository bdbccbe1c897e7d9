"use client";

import { Link } from "@/components/common/link";
import { keepPreviousData } from "@tanstack/react-query";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { BanIcon, ListPlusIcon } from "lucide-react";
import type { Page } from "@/lib/schemas/common";
import { suppressionsBase, suppressionsQuery } from "@/lib/queries/suppressions";
import type { SuppressionRow } from "@/lib/schemas/suppressions";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { RelativeTime } from "@/components/common/relative-time";
import { TableSkeleton } from "@/components/common/table-skeleton";
import { CopyableText } from "@/components/common/copy-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PagedList } from "@/components/common/paged-list";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { useUrlState } from "@/components/hooks/use-url-state";
import { projectHref } from "@/lib/nav";
import { useShell } from "@/components/shell/shell-context";
import { ExportMenu } from "@/components/export/export-menu";
import { AddSuppressionDialog } from "./add-suppression-dialog";

const REASONS: Record<string, string> = {
  bounce: "Hard bounce: the address does not exist or refuses mail",
  complaint: "The recipient marked a message as spam",
  unsubscribe: "The recipient unsubscribed",
  manual: "Added by hand",
};

export function SuppressionsScreen({ project, initial }: { project: string; initial: FirstLoad<Page<SuppressionRow>> }) {
  const { get, set } = useUrlState();
  const cursor = get("cursor");
  const query = useFirstLoadQuery({ ...suppressionsQuery(project, cursor), initialData: initial.data, placeholderData: keepPreviousData }, initial.error);
  const add = <AddSuppressionDialog project={project} />;
  const { can } = useShell();

  return (
    <div className="space-y-6">
      <PageHeader
        title="Suppressions"
        description="Addresses the service will not send to, and why. Sends to them are rejected."
        actions={
          <>
            <ExportMenu path={`${suppressionsBase(project)}/export`} />
            {can("suppressions:write") && (
              <Button variant="outline" asChild>
                <Link href={`${projectHref(project, "suppressions")}/bulk`}>
                  <ListPlusIcon aria-hidden="true" />
                  Add in bulk
                </Link>
              </Button>
            )}
            {add}
          </>
        }
      />
      <PagedList
        query={query}
        failure="The suppressions could not be loaded"
        skeleton={<TableSkeleton columns={["w-56", "w-24", "w-24", "w-20"]} rows={5} />}
        empty={
          <EmptyState
            icon={BanIcon}
            title={cursor ? "No more suppressions" : "No suppressed addresses"}
            description="Addresses that bounce hard or complain are added by themselves; you can add one by hand."
            action={cursor ? <Button variant="outline" onClick={() => set({ cursor: null })}>First page</Button> : add}
          />
        }
      >
        {(rows) => (
          <ListTable label="Suppressions" columns={["Address", "Reason", "Behind it", "Since"]}>
            {rows.map((s) => (
              <TableRow key={`${s.email}-${s.createdAt}`}>
                <TableCell className="max-w-72">
                  <CopyableText value={s.email} label="address" />
                </TableCell>
                <TableCell>
                  <Badge variant="outline" title={REASONS[s.reason]}>
                    {s.reason}
                  </Badge>
                </TableCell>
                <TableCell className="text-sm">
                  {s.linkedMessageId ? (
                    <Link className="underline underline-offset-4" href={`${projectHref(project, "messages")}/${encodeURIComponent(s.linkedMessageId)}`}>
                      The {s.reason === "complaint" ? "complaint" : "bounce"} message
                    </Link>
                  ) : (
                    <span className="text-muted-foreground">{REASONS[s.reason] ?? "—"}</span>
                  )}
                </TableCell>
                <TableCell>
                  <RelativeTime value={s.createdAt} />
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </PagedList>
    </div>
  );
}
