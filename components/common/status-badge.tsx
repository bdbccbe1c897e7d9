import { cn } from "@/lib/utils";
import { statusStyle } from "@/components/common/status-styles";
import { TONE_CLASSES } from "@/components/common/status-tones";

/** A message, domain or event state as a badge with its one colour and icon. */
export function StatusBadge({ status, label, className }: { status: string | null | undefined; label?: string; className?: string }) {
  const style = statusStyle(status);
  const Icon = style.icon;
  return (
    <span
      data-slot="status-badge"
      data-status={style.key}
      title={style.description}
      className={cn(
        "inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap",
        TONE_CLASSES[style.tone],
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label ?? style.label}
    </span>
  );
}
