import { CircleCheckIcon, FlagIcon } from "lucide-react";
import { TONE_CLASSES } from "@/components/common/status-tones";
import { cn } from "@/lib/utils";

/**
 * A contact's subscription, in the colours and icons of the states it answers to (delivered to,
 * or marked as spam), without the message vocabulary and every state's icon that StatusBadge
 * brings: the contact screens' first load stays lighter.
 */
export function SubscriptionBadge({ subscribed, className }: { subscribed: boolean; className?: string }) {
  const Icon = subscribed ? CircleCheckIcon : FlagIcon;
  return (
    <span
      data-slot="status-badge"
      data-status={subscribed ? "subscribed" : "unsubscribed"}
      className={cn(
        "inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap",
        TONE_CLASSES[subscribed ? "success" : "attention"],
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {subscribed ? "Subscribed" : "Unsubscribed"}
    </span>
  );
}
