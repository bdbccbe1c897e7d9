import "server-only";
import type { OverviewRange } from "@/lib/insight/ranges";
import { RANGE_MS } from "@/lib/insight/ranges";
import type { TagRow, TagsData } from "@/lib/schemas/insight-tags";
import type { Project } from "@/lib/server/gate/access";
import { catchUpInsight } from "@/lib/server/insight/read";
import { INSIGHT_TAG_PAIRS_MAX } from "@/lib/server/insight/tag-refresh";
import { windowTotals } from "@/lib/server/insight/windows";
import { groupMinVolume, rateFiguresOf } from "./deliverability";
import { projectThresholds } from "./settings";

/**
 * "Do our password resets bounce more than our invoices?": the range's figures per tag pair,
 * from the tag rollup (lib/server/insight/tag-refresh.ts), each rate held against the
 * project's thresholds like the overview's and the provider table's.
 */
export async function getTagFigures(project: Project, range: OverviewRange, now = new Date()): Promise<TagsData> {
  await catchUpInsight();
  const since = now.getTime() - RANGE_MS[range];
  const [byTag, thresholds] = await Promise.all([windowTotals(project.id, [since], now, { byTag: true }), projectThresholds(project.id)]);
  const minVolume = groupMinVolume();
  const tags: TagRow[] = [];
  for (const [key, [t]] of byTag) {
    if (!t || t.sent <= 0) continue;
    const [name, value] = JSON.parse(key) as [string, string];
    tags.push({
      name,
      value,
      other: name === "" && value === "",
      ...rateFiguresOf(t, thresholds, minVolume),
      clicked: t.clicked,
      clickRate: t.delivered ? t.clicked / t.delivered : null,
    });
  }
  tags.sort((a, b) => Number(a.other) - Number(b.other) || b.sent - a.sent || a.name.localeCompare(b.name) || a.value.localeCompare(b.value));
  return { range, generatedAt: now.toISOString(), tags, thresholds, minVolume, maxPairs: INSIGHT_TAG_PAIRS_MAX };
}
