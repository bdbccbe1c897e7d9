"use client";

import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useNow } from "@/components/hooks/use-now";
import { cn } from "@/lib/utils";
import { formatAbsolute, formatRelative, formatUtc, toDate } from "@/components/common/time-format";

/**
 * "3 min ago", with the exact time in the viewer's zone and in UTC on hover or focus.
 * Server and browser may disagree by a minute (and by zone), hence suppressHydrationWarning.
 */
export function RelativeTime({ value, className, fallback = "—" }: { value: Date | string | number | null | undefined; className?: string; fallback?: string }) {
  const now = useNow();
  const date = value == null ? null : toDate(value);
  if (!date) return <span className={cn("text-muted-foreground", className)}>{fallback}</span>;
  const absolute = formatAbsolute(date);
  const utc = formatUtc(date);
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <time
          dateTime={date.toISOString()}
          tabIndex={0}
          className={cn("cursor-default whitespace-nowrap underline decoration-dotted decoration-muted-foreground/50 underline-offset-4 rounded-sm", className)}
          suppressHydrationWarning
        >
          {formatRelative(date, new Date(now))}
        </time>
      </TooltipTrigger>
      <TooltipContent>
        {!absolute.endsWith(" UTC") && (
          <span className="block" suppressHydrationWarning>
            {absolute} <span className="opacity-80">(your time)</span>
          </span>
        )}
        <span className="block font-mono">{utc}</span>
      </TooltipContent>
    </Tooltip>
  );
}
