import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * The title row of every screen: what this is, one line on what it is for, and its actions.
 * A long title (an address, an id) is cut to one line from the `md` width up and wraps below
 * it, so on a phone all of it stays readable.
 */
export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
  className,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  eyebrow?: React.ReactNode;
  className?: string;
}) {
  return (
    <div data-slot="page-header" className={cn("flex flex-wrap items-start justify-between gap-4", className)}>
      <div className="min-w-0 space-y-1">
        {eyebrow && <div className="text-xs font-medium text-muted-foreground">{eyebrow}</div>}
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] md:truncate">{title}</h1>
        {description && <p className="max-w-2xl text-sm text-muted-foreground">{description}</p>}
      </div>
      {/* Below md the actions may take a line of their own and wrap there: several buttons side by side are wider than a phone. */}
      {actions && <div className="flex min-w-0 flex-wrap items-center gap-2 md:shrink-0">{actions}</div>}
    </div>
  );
}
