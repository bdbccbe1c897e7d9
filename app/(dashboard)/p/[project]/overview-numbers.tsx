import { AlertTriangleIcon, CheckCircle2Icon } from "lucide-react";
import { cn } from "@/lib/utils";
import { BOUNCE_RATE_LIMIT, COMPLAINT_RATE_LIMIT, rates, type OverviewCounts } from "@/lib/server/overview/types";

const METRICS = [
  { key: "sent", label: "Sent" },
  { key: "delivered", label: "Delivered" },
  { key: "bounced", label: "Bounced" },
  { key: "complained", label: "Complained" },
  { key: "rejected", label: "Rejected" },
] as const;

const pct = (v: number) => `${(v * 100).toFixed(v < 0.01 ? 2 : 1)}%`;

function Rate({ label, value, limit }: { label: string; value: number | null; limit: number }) {
  const over = value !== null && value > limit;
  return (
    <div
      className={cn("rounded-lg border p-4", over ? "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/40" : "bg-card")}
      data-rate={label}
      data-over={over || undefined}
    >
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 flex items-center gap-2 text-2xl font-semibold tabular-nums">
        {value === null ? "—" : pct(value)}
        {value !== null &&
          (over ? (
            <AlertTriangleIcon className="size-5 text-red-700 dark:text-red-300" aria-label="Above the threshold" />
          ) : (
            <CheckCircle2Icon className="size-5 text-emerald-700 dark:text-emerald-300" aria-label="Within the threshold" />
          ))}
      </p>
      <p className={cn("text-xs", over ? "font-medium text-red-800 dark:text-red-200" : "text-muted-foreground")}>
        {over ? `Above ${pct(limit)}: mailbox providers start filtering or blocking at this level.` : `Threshold ${pct(limit)}`}
      </p>
    </div>
  );
}

/** The five volumes of the chosen period and the two rates against the providers' thresholds. */
export function OverviewNumbers({ counts }: { counts: OverviewCounts }) {
  const r = rates(counts);
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {METRICS.map((m) => (
          <div key={m.key} className="rounded-lg border bg-card p-4" data-metric={m.key}>
            <dt className="text-sm text-muted-foreground">{m.label}</dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums">{counts[m.key].toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-3 sm:grid-cols-2">
        <Rate label="Bounce rate" value={r.bounce} limit={BOUNCE_RATE_LIMIT} />
        <Rate label="Complaint rate" value={r.complaint} limit={COMPLAINT_RATE_LIMIT} />
      </div>
    </div>
  );
}
