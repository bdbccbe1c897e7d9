"use client";

import { Link } from "@/components/common/link";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { FileTextIcon } from "lucide-react";
import type { Page } from "@/lib/schemas/common";
import type { Template } from "@/lib/schemas/templates";
import { templatesQuery } from "@/lib/queries/templates";
import { useUrlState } from "@/components/hooks/use-url-state";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { TableSkeleton } from "@/components/common/table-skeleton";
import { UrlCursorPager } from "@/components/common/url-cursor-pager";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/** The project's templates, a page at a time (the cursor lives in the URL). */
export function TemplatesScreen({ project, initial }: { project: string; initial: FirstLoad<Page<Template>> }) {
  const { get } = useUrlState();
  const cursor = get("cursor");
  const { data, error, refetch, isLoading, isFetching } = useFirstLoadQuery({ ...templatesQuery(project, cursor), initialData: initial.data }, initial.error);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Templates"
        description="Stored templates of this project. Open one to fill its variables, see it on desktop and mobile, and send yourself a test. Templates are created and changed in the service, not here."
      />
      {error ? (
        <ErrorState error={error} onRetry={() => refetch()} retrying={isFetching} />
      ) : isLoading || !data ? (
        <TableSkeleton columns={["w-40", "w-28", "w-64", "w-20"]} />
      ) : data.data.length === 0 ? (
        <EmptyState icon={FileTextIcon} title="No templates in this project" description="Templates are created through the service's own tools; they appear here once they exist." />
      ) : (
        <ListTable label="Templates" columns={["Name", "Slug", "Subject", "Created"]}>
          {data.data.map((t) => (
            <TableRow key={t.id}>
              <TableCell>
                <Link href={`/p/${encodeURIComponent(project)}/templates/${encodeURIComponent(t.id)}`} className="font-medium underline-offset-4 hover:underline">
                  {t.name}
                </Link>
              </TableCell>
              <TableCell className="font-mono text-xs">{t.slug ?? "—"}</TableCell>
              <TableCell className="max-w-md truncate">{t.subject}</TableCell>
              <TableCell>
                <RelativeTime value={t.createdAt} />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      <UrlCursorPager next={data?.nextCursor} className="justify-start" />
    </div>
  );
}
