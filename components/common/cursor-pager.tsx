import * as React from "react";
import { ArrowLeftToLineIcon, ChevronRightIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * The buttons under a list read a page at a time (the page's place lives in the URL, so the
 * screen passes what to set). `onBack` is absent on the first page, `onNext` when nothing
 * follows.
 *
 * - `pages` (lists in no particular time order): "First page" and "Next page" at the end of the
 *   row, shown once there is more than one page; Next stays in place, disabled, on the last one.
 * - `timeline` (newest first: messages, audit entries): "Back to newest" on the left, "Older …"
 *   on the right, each only when it leads somewhere.
 */
export function CursorPager({
  label,
  onBack,
  onNext,
  variant = "pages",
  back = variant === "timeline" ? "Back to newest" : "First page",
  next = "Next page",
  pending,
  className,
}: {
  /** The navigation landmark's name ("Pages", "Message pages"). */
  label: string;
  onBack?: () => void;
  onNext?: () => void;
  variant?: "pages" | "timeline";
  back?: React.ReactNode;
  next?: React.ReactNode;
  /** The next page is being fetched (the Next button shows it). */
  pending?: boolean;
  className?: string;
}) {
  if (variant === "timeline") {
    return (
      <nav aria-label={label} className={cn("flex items-center justify-between gap-2", className)}>
        <div>
          {onBack && (
            <Button variant="outline" size="sm" onClick={onBack}>
              <ArrowLeftToLineIcon aria-hidden="true" />
              {back}
            </Button>
          )}
        </div>
        {onNext && (
          <Button variant="outline" size="sm" onClick={onNext} pending={pending}>
            {next}
            <ChevronRightIcon aria-hidden="true" />
          </Button>
        )}
      </nav>
    );
  }
  if (!onBack && !onNext) return null;
  return (
    <nav aria-label={label} className={cn("flex items-center justify-end gap-2", className)}>
      {onBack && (
        <Button variant="outline" size="sm" onClick={onBack}>
          {back}
        </Button>
      )}
      <Button variant="outline" size="sm" disabled={!onNext} onClick={onNext} pending={pending}>
        {next}
      </Button>
    </nav>
  );
}
