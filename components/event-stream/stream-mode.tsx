import { RadioTowerIcon, RefreshCwIcon } from "lucide-react";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import { TONE_CLASSES } from "@/components/common/status-tones";
import { RelativeTime } from "@/components/common/relative-time";
import { cn } from "@/lib/utils";

/** "Live" or "Polling", with one colour and icon each, wherever the stream's mode is shown. */
export function StreamModeBadge({ status, className }: { status: Pick<StreamStatus, "mode">; className?: string }) {
  const live = status.mode === "live";
  const Icon = live ? RadioTowerIcon : RefreshCwIcon;
  return (
    <span
      data-stream-mode={status.mode}
      className={cn("inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap", TONE_CLASSES[live ? "success" : "warning"], className)}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {live ? "Live" : "Polling"}
    </span>
  );
}

/** Why the project is in its mode, in one or two plain sentences. */
export function StreamModeExplanation({ status }: { status: StreamStatus }) {
  const polling = " The dashboard reads this project's unsettled messages from the service itself, a few at a time, so statuses, search and the overview still catch up within a minute.";
  switch (status.code) {
    case "live":
      return (
        <>
          Deliveries arrive and verify: each one makes the dashboard read that message back from the service, so statuses and search follow within seconds. Last
          delivery <RelativeTime value={status.since} />.
        </>
      );
    case "waiting":
      return <>Connected and waiting for the first delivery. If messages are sent and nothing arrives, the dashboard switches to polling by itself.</>;
    case "not_connected":
      return <>The event stream is not connected.{polling}</>;
    case "refused":
      return (
        <>
          Deliveries arrive but their signatures do not verify, so they are refused (the last <RelativeTime value={status.since} />
          {status.reason ? `: ${status.reason}` : ""}).{polling} Reconnecting the stream gives it a new signing secret.
        </>
      );
    case "unusable":
      return (
        <>
          Deliveries arrive and verify, but the dashboard cannot use them (the last <RelativeTime value={status.since} />
          {status.reason ? `: ${status.reason}` : ""}).{polling}
        </>
      );
    case "silent":
      return (
        <>
          Connected, but nothing has arrived for messages sent since <RelativeTime value={status.since} />.{polling}
        </>
      );
  }
}
