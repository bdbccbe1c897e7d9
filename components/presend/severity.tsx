import { CircleXIcon, InfoIcon, TriangleAlertIcon, type LucideIcon } from "lucide-react";
import type { Severity } from "@/lib/schemas/presend";
import { TONE_CLASSES, type StatusTone } from "@/components/common/status-tones";
import { cn } from "@/lib/utils";

/** The status badges' tones and shape, so a pre-send error looks like every other error in the dashboard. */
export const SEVERITY_STYLES: Record<Severity, { label: string; plural: string; tone: StatusTone; icon: LucideIcon }> = {
  error: { label: "Error", plural: "errors", tone: "danger", icon: CircleXIcon },
  warning: { label: "Warning", plural: "warnings", tone: "warning", icon: TriangleAlertIcon },
  info: { label: "Note", plural: "notes", tone: "info", icon: InfoIcon },
};

export function SeverityBadge({ severity, count, className }: { severity: Severity; count?: number; className?: string }) {
  const style = SEVERITY_STYLES[severity];
  const Icon = style.icon;
  return (
    <span
      data-slot="severity-badge"
      data-severity={severity}
      className={cn("inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap", TONE_CLASSES[style.tone], className)}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {count === undefined ? style.label : `${count} ${count === 1 ? style.label.toLowerCase() : style.plural}`}
    </span>
  );
}
