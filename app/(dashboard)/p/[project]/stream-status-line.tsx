"use client";

import { Link } from "@/components/common/link";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import { RelativeTime } from "@/components/common/relative-time";
import { projectHref } from "@/components/shell/nav";
import { useShell } from "@/components/shell/shell-context";
import { StreamModeBadge } from "@/components/event-stream/stream-mode";

const POLLING_WHY: Record<string, string> = {
  not_connected: "the event stream is not connected",
  refused: "deliveries are refused: their signatures do not verify",
  unusable: "deliveries arrive but cannot be used",
  silent: "the event stream is connected but silent",
};

/** The overview's one line on where its numbers come from, linking to the details on the webhooks screen. */
export function StreamStatusLine({ project, status }: { project: string; status: StreamStatus }) {
  const { can } = useShell();
  const h = status.health;
  return (
    <section aria-label="Event stream" data-stream-status={status.code} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-card px-4 py-2.5 text-sm">
      <span className="font-medium">Event stream</span>
      <StreamModeBadge status={status} />
      <span className="text-muted-foreground">
        {status.mode === "live" ? (
          <>
            last delivery <RelativeTime value={h.lastDeliveryAt} fallback="none yet" /> · {h.acceptedCount.toLocaleString()} accepted
            {h.unusableCount > 0 && ` · ${h.unusableCount.toLocaleString()} unusable`}
            {h.refusedCount > 0 && ` · ${h.refusedCount.toLocaleString()} refused`}
          </>
        ) : (
          <>{POLLING_WHY[status.code] ?? "events are not arriving"}: the dashboard reads unsettled messages from the service itself.</>
        )}
      </span>
      {can("webhooks:read") && (
        <Link className="ml-auto text-sm font-medium underline-offset-4 hover:underline" href={projectHref(project, "webhooks")}>
          Stream details
        </Link>
      )}
    </section>
  );
}
