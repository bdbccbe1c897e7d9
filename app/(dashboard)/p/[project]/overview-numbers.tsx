import { cn } from "@/lib/utils";
import { formatRate, formatThreshold, levelOf, levelsOf, type Level, type Metric, type Thresholds } from "@/lib/insight/thresholds";
import { rates } from "@/lib/insight/rates";
import type { EngagementCounts, OverviewCounts } from "@/lib/schemas/overview";
import { LevelBadge } from "@/components/insight/level-badge";

const METRICS = [
  { key: "sent", label: "Sent" },
  { key: "delivered", label: "Delivered" },
  { key: "bounced", label: "Bounced" },
  { key: "complained", label: "Complained" },
  { key: "rejected", label: "Rejected" },
  { key: "opened", label: "Opened" },
  { key: "clicked", label: "Clicked" },
] as const;

const FRAME: Record<Level, string> = {
  ok: "bg-card",
  warning: "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40",
  limit: "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/40",
};

/** A rate with what it is a rate of, and, for bounces and complaints, its level against the project's thresholds. */
function Rate({ label, of, value, metric, thresholds }: { label: string; of: string; value: number | null; metric?: Metric; thresholds: Thresholds }) {
  const levels = metric ? levelsOf(metric, thresholds) : null;
  const level = levels ? levelOf(value, levels) : "ok";
  return (
    <div className={cn("rounded-lg border p-4", FRAME[level])} data-rate={label} data-level={levels ? level : undefined}>
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-semibold tabular-nums">
        {value === null ? "—" : formatRate(value)}
        {levels && value !== null && <LevelBadge level={level} />}
      </p>
      <p className="text-xs text-muted-foreground">{of}</p>
      {levels && (
        <p className={cn("text-xs", level === "ok" ? "text-muted-foreground" : "font-medium text-foreground")}>
          {level === "limit"
            ? `Over the ${formatThreshold(levels.limit)} limit: mailbox providers filter or block senders at this level.`
            : level === "warning"
              ? `Above the ${formatThreshold(levels.warning)} warning level (limit ${formatThreshold(levels.limit)}).`
              : `Warning at ${formatThreshold(levels.warning)}, limit ${formatThreshold(levels.limit)}.`}
        </p>
      )}
    </div>
  );
}

/** The volumes of the chosen period, the delivery rates against the thresholds, and engagement. */
export function OverviewNumbers({ counts, engagement, thresholds }: { counts: OverviewCounts; engagement: EngagementCounts; thresholds: Thresholds }) {
  const all = { ...counts, ...engagement };
  const r = rates(all);
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
        {METRICS.map((m) => (
          <div key={m.key} className="rounded-lg border bg-card p-4" data-metric={m.key}>
            <dt className="text-sm text-muted-foreground">{m.label}</dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums">{all[m.key].toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Rate label="Bounce rate" of="Bounced ÷ sent" value={r.bounce} metric="bounce" thresholds={thresholds} />
        <Rate label="Complaint rate" of="Marked as spam ÷ delivered" value={r.complaint} metric="complaint" thresholds={thresholds} />
        <Rate label="Open rate" of="Messages opened ÷ delivered, each once. Some mail apps open every message to protect privacy, so this reads high." value={r.open} thresholds={thresholds} />
        <Rate label="Click rate" of="Messages with a click ÷ delivered, each once." value={r.click} thresholds={thresholds} />
      </div>
    </div>
  );
}
