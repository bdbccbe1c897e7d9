"use client";

import { statusStyle } from "@/components/common/status-styles";
import { TONE_CLASSES } from "@/components/common/status-tones";
import { formatAbsolute, toDate } from "@/components/common/time-format";
import { RelativeTime } from "@/components/common/relative-time";
import { cn } from "@/lib/utils";
import { eventDetails, eventLabel, rawWordShown, type ViewEvent } from "./event-details";

const timeOf = (e: ViewEvent) => (e.createdAt ? (toDate(e.createdAt)?.getTime() ?? null) : null);

/**
 * The events, oldest first, as a vertical line of steps: the event's name (the service's own
 * word when the dashboard does not know it), its time, and every field it carried. Sorted by
 * time when every event has one; otherwise in the order the service gave them.
 */
export function Timeline({ events }: { events: ViewEvent[] }) {
  const steps = events.map((event, i) => ({ event, i, at: timeOf(event) }));
  const sorted = steps.every((s) => s.at !== null) ? steps.sort((a, b) => a.at! - b.at! || a.i - b.i) : steps;
  if (sorted.length === 0) return <p className="text-sm text-muted-foreground">No events yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-border pl-6" aria-label="Message timeline">
      {sorted.map(({ event, i, at }) => {
        const style = statusStyle(event.type);
        const Icon = style.icon;
        const rows = eventDetails(event);
        const label = eventLabel(event);
        const raw = rawWordShown(event);
        return (
          <li key={`${event.type}-${event.createdAt ?? ""}-${i}`} className="relative" data-event-type={event.type}>
            <span className={cn("absolute top-0.5 -left-[2.15rem] flex size-6 items-center justify-center rounded-full border", TONE_CLASSES[style.tone])}>
              <Icon className="size-3.5" aria-hidden="true" />
            </span>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
              <span className="font-medium">{label}</span>
              {raw && (
                <code className="rounded bg-muted px-1 font-mono text-xs text-muted-foreground" title="The service's name for this event">
                  {raw}
                </code>
              )}
              {at !== null ? (
                <span className="text-xs text-muted-foreground" suppressHydrationWarning>
                  {formatAbsolute(new Date(at))} · <RelativeTime value={at} />
                </span>
              ) : (
                <span className="text-xs text-muted-foreground">time not given</span>
              )}
            </div>
            {rows.length > 0 && (
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                {rows.map((d, n) => (
                  <div key={`${d.label}-${n}`} className="contents">
                    <dt className="text-muted-foreground">{d.label}</dt>
                    <dd className="min-w-0 break-words">
                      {d.href ? (
                        <a href={d.href} target="_blank" rel="noopener noreferrer nofollow" className="underline underline-offset-4">
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
