import type { EngagementCounts, OverviewCounts } from "@/lib/schemas/overview";

/** Bounces per message sent; complaints, opens and clicks per message delivered. Null when nothing to divide by. */
export function rates(c: OverviewCounts & EngagementCounts): { bounce: number | null; complaint: number | null; open: number | null; click: number | null };
export function rates(c: OverviewCounts): { bounce: number | null; complaint: number | null };
export function rates(c: OverviewCounts & Partial<EngagementCounts>) {
  const per = (n: number, of: number) => (of ? n / of : null);
  const base = { bounce: per(c.bounced, c.sent), complaint: per(c.complained, c.delivered) };
  return c.opened === undefined ? base : { ...base, open: per(c.opened, c.delivered), click: per(c.clicked ?? 0, c.delivered) };
}
