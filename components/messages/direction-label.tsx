import { ArrowDownLeftIcon, ArrowUpRightIcon } from "lucide-react";

/**
 * Inbound or outbound, with its arrow. A file of its own so that the message screen, which
 * shows it without any table, does not bring the messages table into its first load.
 */
export function DirectionLabel({ direction }: { direction: "inbound" | "outbound" }) {
  const Icon = direction === "inbound" ? ArrowDownLeftIcon : ArrowUpRightIcon;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
      <Icon className="size-3.5" aria-hidden="true" />
      {direction === "inbound" ? "Inbound" : "Outbound"}
    </span>
  );
}
