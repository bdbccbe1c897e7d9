"use client";

import { TagsIcon } from "lucide-react";
import type { FirstLoad } from "@/components/common/first-load";
import type { TagsData } from "@/lib/schemas/insight-tags";
import { tagsQuery } from "@/lib/queries/insight";
import { usePeriodQuery } from "@/components/insight/use-period-query";
import { PeriodScreen } from "@/components/insight/period-screen";
import { defaultDir, sortFrom } from "@/lib/insight/tag-sort";
import { TagTable } from "./tag-table";

/** "Do our password resets bounce more than our invoices?": the period's figures per tag, against the thresholds. */
export function TagsScreen({ project, initial }: { project: string; initial: FirstLoad<TagsData> }) {
  const { url, range, setRange, query } = usePeriodQuery((r) => tagsQuery(project, r), initial);
  const sort = sortFrom(url.get("sort"), url.get("dir"));
  return (
    <PeriodScreen
      header={{
        title: "Tags",
        description: "Each name=value tag of the project's mail: sent, delivered, bounced, complained, opened and clicked, with its rates held against the alert thresholds.",
      }}
      period={{ range, setRange }}
      query={query}
      failure="The tag figures could not be loaded"
      loading="Loading the tag figures"
      empty={{
        project,
        when: (data) => data.tags.length === 0,
        icon: TagsIcon,
        title: (period) => `No tagged mail in the ${period}`,
        description: "Messages sent with tags (a name and a value, such as category=password-reset) are counted here per tag.",
      }}
    >
      {(data) => (
        <>
          <TagTable project={project} data={data} sort={sort} onSort={(s) => url.set({ sort: s.key === "sent" ? null : s.key, dir: s.dir === defaultDir(s.key) ? null : s.dir }, { replace: true })} />
          <p className="text-xs text-muted-foreground">
            A message counts under each of its tags. A tag&apos;s rates are judged from {data.minVolume.toLocaleString()} messages; below that they are shown without a colour. The figures
            keep {data.maxPairs.toLocaleString()} tags per project: messages with any other tag count under &ldquo;Other tags&rdquo;, and a tag unused for a month gives up its place.
          </p>
        </>
      )}
    </PeriodScreen>
  );
}
