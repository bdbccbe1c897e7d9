"use client";

import type { MessageEvent } from "@/lib/schemas/events";
import { statusStyle, TONE_CLASSES } from "@/components/common/status-styles";
import { formatAbsolute, toDate } from "@/components/common/time-format";
import { RelativeTime } from "@/components/common/relative-time";
import { cn } from "@/lib/utils";

const EVENT_LABELS: Record<string, string> = {
  accepted: "Accepted",
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  delivery: "Delivered",
  bounce: "Bounced",
  complaint: "Marked as spam",
  open: "Opened",
  click: "Link clicked",
  delivery_delayed: "Delivery delayed",
  rejected: "Rejected",
  rendering_failure: "Template could not be rendered",
  failed: "Failed",
  inbound_received: "Received",
  inbound_rejected: "Inbound mail rejected",
};

/** Data worth showing, by the names services use: reason, link, delay cause... */
const DATA_LABELS: [string, string][] = [
  ["diagnostic", "Server said"],
  ["reason", "Reason"],
  ["cause", "Cause"],
  ["bounceType", "Bounce type"],
  ["link", "Link"],
  ["url", "Link"],
  ["missing", "Missing variables"],
  ["error", "Error"],
  ["suppressionReason", "Suppressed for"],
  ["recipient", "Recipient"],
  ["feedbackType", "Feedback"],
];

function detailsOf(event: MessageEvent): { label: string; value: string; isLink: boolean }[] {
  const out: { label: string; value: string; isLink: boolean }[] = [];
  for (const [key, label] of DATA_LABELS) {
    const v = event.data?.[key];
    if (v === undefined || v === null || v === "") continue;
    const value = Array.isArray(v) ? v.map(String).join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v);
    out.push({ label, value, isLink: (key === "link" || key === "url") && /^https?:\/\//i.test(value) });
  }
  return out;
}

/** The events, oldest first, as a vertical line of steps with icon, times and data. */
export function Timeline({ events }: { events: MessageEvent[] }) {
  const sorted = [...events].sort((a, b) => (toDate(a.createdAt ?? 0)?.getTime() ?? 0) - (toDate(b.createdAt ?? 0)?.getTime() ?? 0));
  if (sorted.length === 0) return <p className="text-sm text-muted-foreground">No events yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-border pl-6" aria-label="Message timeline">
      {sorted.map((event, i) => {
        const style = statusStyle(event.type);
        const Icon = style.icon;
        const at = event.createdAt ? toDate(event.createdAt) : null;
        return (
          <li key={`${event.type}-${event.createdAt ?? i}-${i}`} className="relative" data-event-type={event.type}>
            <span className={cn("absolute top-0.5 -left-[2.15rem] flex size-6 items-center justify-center rounded-full border", TONE_CLASSES[style.tone])}>
              <Icon className="size-3.5" aria-hidden="true" />
            </span>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
              <span className="font-medium">{EVENT_LABELS[event.type] ?? style.label}</span>
              {at && (
                <span className="text-xs text-muted-foreground" suppressHydrationWarning>
                  {formatAbsolute(at)} · <RelativeTime value={at} />
                </span>
              )}
            </div>
            {detailsOf(event).length > 0 && (
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                {detailsOf(event).map((d) => (
                  <div key={d.label + d.value} className="contents">
                    <dt className="text-muted-foreground">{d.label}</dt>
                    <dd className="min-w-0 break-words">
                      {d.isLink ? (
                        <a href={d.value} target="_blank" rel="noopener noreferrer" className="underline underline-offset-4">
                          {d.value}
                        </a>
                      ) : (
                        d.value
                      )}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        );
      })}
    </ol>
  );
}
