"use client";

import { Link } from "@/components/common/link";
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from "lucide-react";
import type { TagRow, TagsData } from "@/lib/schemas/insight-tags";
import { formatRate, formatThreshold, type Level } from "@/lib/insight/thresholds";
import { quoteValue } from "@/lib/messages/search-query/format";
import { projectHref } from "@/lib/nav";
import { defaultDir, sortTagRows, tagLabel as label, type TagSort, type TagSortKey as SortKey } from "@/lib/insight/tag-sort";
import { LevelBadge } from "@/components/insight/level-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** The search on Messages for a tag's messages. */
export function tagSearchHref(project: string, row: TagRow): string {
  return `${projectHref(project, "messages")}?q=${encodeURIComponent(`tag:${quoteValue(`${row.name}=${row.value}`)}`)}`;
}

function SortHead({ label: text, sortKey, sort, onSort, numeric = true }: { label: string; sortKey: SortKey; sort: TagSort; onSort: (s: TagSort) => void; numeric?: boolean }) {
  const active = sort.key === sortKey;
  const Icon = !active ? ArrowUpDownIcon : sort.dir === "asc" ? ArrowUpIcon : ArrowDownIcon;
  const next: TagSort = { key: sortKey, dir: active ? (sort.dir === "asc" ? "desc" : "asc") : defaultDir(sortKey) };
  return (
    <TableHead className={numeric ? "text-right" : undefined} aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}>
      <button type="button" className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring" onClick={() => onSort(next)}>
        {text}
        <Icon className="size-3.5" aria-hidden="true" />
      </button>
    </TableHead>
  );
}

function RateCell({ metric, count, rate, level, judged }: { metric: string; count: number; rate: number | null; level?: Level; judged?: boolean }) {
  return (
    <TableCell className="text-right whitespace-nowrap" data-metric={metric} data-level={judged ? level : undefined}>
      <span className="tabular-nums">{count.toLocaleString()}</span>
      <span className="ml-2 inline-flex items-center gap-1.5 tabular-nums text-muted-foreground">
        {formatRate(rate)}
        {judged && level && rate !== null && <LevelBadge level={level} label={level === "ok" ? "OK" : undefined} />}
      </span>
    </TableCell>
  );
}

/** One row per tag, sortable by any column, each tag a link to its messages; rates against the project's thresholds. */
export function TagTable({ project, data, sort, onSort }: { project: string; data: TagsData; sort: TagSort; onSort: (s: TagSort) => void }) {
  const t = data.thresholds;
  const heads: [string, SortKey][] = [
    ["Sent", "sent"],
    ["Delivered", "delivered"],
    ["Bounced", "bounceRate"],
    ["Complained", "complaintRate"],
    ["Opened", "openRate"],
    ["Clicked", "clickRate"],
  ];
  return (
    <Table label="Mail by tag">
      <caption className="px-3 py-2 text-left text-xs text-muted-foreground">
        Bounced ÷ sent (warning {formatThreshold(t.bounceWarning)}, limit {formatThreshold(t.bounceLimit)}); complained ÷ delivered (warning {formatThreshold(t.complaintWarning)}, limit{" "}
        {formatThreshold(t.complaintLimit)}); opened and clicked ÷ delivered.
      </caption>
      <TableHeader>
        <TableRow>
          <SortHead label="Tag" sortKey="tag" sort={sort} onSort={onSort} numeric={false} />
          {heads.map(([text, key]) => (
            <SortHead key={key} label={text} sortKey={key} sort={sort} onSort={onSort} />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {sortTagRows(data.tags, sort).map((row) => (
          <TableRow key={row.other ? "" : label(row)} data-tag={row.other ? "(other)" : label(row)}>
            <TableCell className="max-w-64 truncate font-medium">
              {row.other ? (
                <span className="text-muted-foreground">Other tags</span>
              ) : (
                <Link href={tagSearchHref(project, row)} className="underline-offset-4 hover:underline" title={`Messages tagged ${label(row)}`}>
                  {label(row)}
                </Link>
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-metric="sent">
              {row.sent.toLocaleString()}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-metric="delivered">
              {row.delivered.toLocaleString()}
            </TableCell>
            <RateCell metric="bounced" count={row.bounced} rate={row.bounceRate} level={row.bounceLevel} judged={row.sent >= data.minVolume} />
            <RateCell metric="complained" count={row.complained} rate={row.complaintRate} level={row.complaintLevel} judged={row.delivered >= data.minVolume} />
            <RateCell metric="opened" count={row.opened} rate={row.openRate} />
            <RateCell metric="clicked" count={row.clicked} rate={row.clickRate} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
