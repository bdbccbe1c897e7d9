"use client";

import { AlertTriangleIcon, RotateCcwIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { CopyButton } from "@/components/common/copy-button";
import { describeError } from "@/components/common/error-advice";

/**
 * A failed load in place of the content it would have shown, with what to do and a retry.
 * The rest of the screen stays usable around it.
 */
export function ErrorState({
  title = "This could not be loaded",
  error,
  onRetry,
  retrying,
  className,
  compact = false,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
  compact?: boolean;
}) {
  const { message, advice, correlationId } = describeError(error);
  return (
    <div
      role="alert"
      data-slot="error-state"
      className={cn(
        "flex gap-3 rounded-lg border border-destructive/30 bg-destructive/5 text-sm",
        compact ? "items-center px-3 py-2" : "flex-col items-center px-6 py-10 text-center",
        className,
      )}
    >
      <AlertTriangleIcon className={cn("shrink-0 text-destructive dark:text-red-300", compact ? "size-4" : "size-6")} aria-hidden="true" />
      <div className={cn("space-y-1", compact ? "flex-1" : "max-w-md")}>
        <p className="font-medium">{title}</p>
        <p className="text-muted-foreground">
          {message} {advice}
        </p>
        {correlationId && (
          <p className={cn("flex items-center gap-1 text-xs text-muted-foreground", !compact && "justify-center")}>
            Reference <code className="font-mono">{correlationId}</code>
            <CopyButton value={correlationId} label="error reference" className="size-6" />
          </p>
        )}
      </div>
      {onRetry && (
        <Button type="button" variant="outline" size="sm" onClick={onRetry} pending={retrying}>
          {!retrying && <RotateCcwIcon aria-hidden="true" />}
          Try again
        </Button>
      )}
    </div>
  );
}
