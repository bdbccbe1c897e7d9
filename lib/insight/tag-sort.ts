import type { TagRow } from "@/lib/schemas/insight-tags";

/**
 * The Tags screen's order, kept in its URL (`?sort=&dir=`): by the tag, a count or a rate.
 * Browser-safe and free of React, so the order is tested without a browser.
 */
export const TAG_SORT_KEYS = ["tag", "sent", "delivered", "bounceRate", "complaintRate", "openRate", "clickRate"] as const;
export type TagSortKey = (typeof TAG_SORT_KEYS)[number];
export type TagSort = { key: TagSortKey; dir: "asc" | "desc" };

/** The sort the URL asks for: most sent first when absent or unknown; a tag A→Z, a figure highest first, unless `dir` says. */
export function sortFrom(key: string | null, dir: string | null): TagSort {
  const k = (TAG_SORT_KEYS as readonly string[]).includes(key ?? "") ? (key as TagSortKey) : "sent";
  return { key: k, dir: dir === "asc" || dir === "desc" ? dir : defaultDir(k) };
}

export const defaultDir = (key: TagSortKey): TagSort["dir"] => (key === "tag" ? "asc" : "desc");

export const tagLabel = (row: Pick<TagRow, "name" | "value">) => `${row.name}=${row.value}`;

/** Rows in the chosen order; a rate with nothing to divide by sorts below 0 %; "Other tags" stays last, as it is not a tag. */
export function sortTagRows(rows: TagRow[], sort: TagSort): TagRow[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  const valueOf = (row: TagRow) => (sort.key === "tag" ? 0 : (row[sort.key] ?? -1));
  return [...rows].sort((a, b) => {
    if (a.other !== b.other) return a.other ? 1 : -1;
    const by = sort.key === "tag" ? tagLabel(a).localeCompare(tagLabel(b)) : valueOf(a) - valueOf(b);
    return by * sign || b.sent - a.sent || tagLabel(a).localeCompare(tagLabel(b));
  });
}
