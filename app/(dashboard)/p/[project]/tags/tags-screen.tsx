"use client";

import Link from "next/link";
import { keepPreviousData } from "@tanstack/react-query";
import { TagsIcon } from "lucide-react";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import type { TagsData } from "@/lib/schemas/insight-tags";
import { tagsQuery } from "@/lib/queries/insight";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { EmptyState } from "@/components/common/empty-state";
import { Button } from "@/components/ui/button";
import { PeriodPicker } from "@/components/insight/period-picker";
import { RANGE_LABELS, rangeFrom } from "@/lib/insight/ranges";
import { useUrlState } from "@/components/hooks/use-url-state";
import { projectHref } from "@/lib/nav";
import { defaultDir, sortFrom } from "@/lib/insight/tag-sort";
import { TagTable } from "./tag-table";

/** "Do our password resets bounce more than our invoices?": the period's figures per tag, against the thresholds. */
export function TagsScreen({ project, initial }: { project: string; initial: FirstLoad<TagsData> }) {
  const { get, set } = useUrlState();
  const range = rangeFrom(get("range"));
  const sort = sortFrom(get("sort"), get("dir"));
  const query = useFirstLoadQuery({ ...tagsQuery(project, range), initialData: initial.data?.range === range ? initial.data : undefined, placeholderData: keepPreviousData }, initial.error);
  const data = query.data;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Tags"
        description="Each name=value tag of the project's mail: sent, delivered, bounced, complained, opened and clicked, with its rates held against the alert thresholds."
        actions={<PeriodPicker value={range} onChange={(r) => set({ range: r === "7d" ? null : r })} />}
      />
      {query.error && !data ? (
        <ErrorState title="The tag figures could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <div className="h-96 animate-pulse rounded-lg bg-muted" role="status" aria-busy="true" aria-label="Loading the tag figures" />
      ) : data.tags.length === 0 ? (
        <EmptyState
          icon={TagsIcon}
          title={`No tagged mail in the ${RANGE_LABELS[range].toLowerCase()}`}
          description="Messages sent with tags (a name and a value, such as category=password-reset) are counted here per tag."
          action={
            <Button asChild size="sm">
              <Link href={projectHref(project, "compose")}>Compose a message</Link>
            </Button>
          }
        />
      ) : (
        <>
          <TagTable project={project} data={data} sort={sort} onSort={(s) => set({ sort: s.key === "sent" ? null : s.key, dir: s.dir === defaultDir(s.key) ? null : s.dir }, { replace: true })} />
          <p className="text-xs text-muted-foreground">
            A message counts under each of its tags. A tag&apos;s rates are judged from {data.minVolume.toLocaleString()} messages; below that they are shown without a colour. The figures
            keep {data.maxPairs.toLocaleString()} tags per project: messages with any other tag count under &ldquo;Other tags&rdquo;, and a tag unused for a month gives up its place.
          </p>
        </>
      )}
    </div>
  );
}
