import { BellIcon, MailIcon, WebhookIcon } from "lucide-react";
import { historyHeadline, WINDOW_WORDS } from "@/lib/insight/alert-words";
import { formatRate, formatThreshold, type Level } from "@/lib/insight/thresholds";
import type { AlertDeliveryView, AlertHistoryItem } from "@/lib/schemas/alerts";
import { EmptyState } from "@/components/common/empty-state";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { LevelBadge } from "@/components/insight/level-badge";
import { Button } from "@/components/ui/button";

const DELIVERY_STATUS: Record<string, { status: string; label: string }> = {
  sent: { status: "delivered", label: "Sent" },
  pending: { status: "queued", label: "Waiting" },
  failed: { status: "failed", label: "Failed" },
  skipped: { status: "canceled", label: "Not sent" },
};

function Delivery({ d }: { d: AlertDeliveryView }) {
  const Icon = d.channel === "email" ? MailIcon : WebhookIcon;
  const style = DELIVERY_STATUS[d.status] ?? { status: d.status, label: d.status };
  return (
    <li className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-delivery={d.channel} data-status={d.status}>
      <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      <span className="sr-only">{d.channel === "email" ? "Email to" : "Webhook"}</span>
      <span className="break-all">{d.target}</span>
      <StatusBadge status={style.status} label={style.label} />
      {d.sentAt && <RelativeTime value={d.sentAt} className="text-xs text-muted-foreground" />}
      {d.status === "pending" && d.attempts > 0 && <span className="text-xs text-muted-foreground">tried {d.attempts} time{d.attempts === 1 ? "" : "s"}, trying again</span>}
      {d.lastError && d.status !== "sent" && <span className="basis-full pl-6 text-xs text-muted-foreground">{d.lastError}</span>}
    </li>
  );
}

/** Every change of a rate's level, newest first, with who was told and whether it reached them. */
export function AlertHistory({ items, canEdit }: { items: AlertHistoryItem[]; canEdit: boolean }) {
  return (
    <section className="space-y-3" aria-labelledby="alert-history-title">
      <h2 id="alert-history-title" className="text-base font-semibold">
        History
      </h2>
      {items.length === 0 ? (
        <EmptyState
          icon={BellIcon}
          title="No alert so far"
          description="When the bounce or complaint rate crosses the warning level or the limit, and when it recovers, the change is listed here with the emails and webhook calls it caused."
          action={
            canEdit ? (
              <Button asChild size="sm" variant="outline">
                <a href="#alert-settings">Review the thresholds</a>
              </Button>
            ) : undefined
          }
        />
      ) : (
        <ol className="divide-y rounded-lg border bg-card">
          {items.map((item) => (
            <li key={item.id} className="space-y-2 p-4" data-alert={item.kind} data-metric={item.metric}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <LevelBadge level={item.level as Level} />
                  {historyHeadline(item)}
                </p>
                <RelativeTime value={item.at} className="text-xs text-muted-foreground" />
              </div>
              <p className="text-sm text-muted-foreground">
                {formatRate(item.rate)} over {WINDOW_WORDS[item.window] ?? item.window}
                {item.threshold !== null && ` (threshold ${formatThreshold(item.threshold)})`}
                {item.windows
                  .filter((w) => w.window !== item.window)
                  .map((w) => `; ${formatRate(w.rate)} over ${WINDOW_WORDS[w.window] ?? w.window}${w.enough ? "" : " (too few to judge)"}`)
                  .join("")}
                .
              </p>
              {item.note && <p className="text-sm">{item.note}</p>}
              {item.deliveries.length > 0 && (
                <ul className="space-y-1" aria-label="Notifications">
                  {item.deliveries.map((d) => (
                    <Delivery key={`${d.channel}-${d.target}`} d={d} />
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
