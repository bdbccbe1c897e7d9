import { AlertTriangleIcon, CircleCheckIcon, OctagonAlertIcon, type LucideIcon } from "lucide-react";
import { TONE_CLASSES, type StatusTone } from "@/components/common/status-tones";
import type { Level } from "@/lib/insight/thresholds";
import { cn } from "@/lib/utils";

/** A rate's level against the thresholds, with one colour, icon and word everywhere (overview, providers, alerts, banner). */
export const LEVEL_STYLES: Record<Level, { label: string; tone: StatusTone; icon: LucideIcon }> = {
  ok: { label: "Within thresholds", tone: "success", icon: CircleCheckIcon },
  warning: { label: "Above warning", tone: "warning", icon: AlertTriangleIcon },
  limit: { label: "Over the limit", tone: "danger", icon: OctagonAlertIcon },
};

export function LevelBadge({ level, label, className }: { level: Level; label?: string; className?: string }) {
  const style = LEVEL_STYLES[level];
  const Icon = style.icon;
  return (
    <span
      data-level={level}
      className={cn("inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap", TONE_CLASSES[style.tone], className)}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label ?? style.label}
    </span>
  );
}
