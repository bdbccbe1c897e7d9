import type * as React from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

/** A loading screen's frame: one busy status region, named for what is on its way. */
export function ScreenSkeleton({ label, className = "space-y-6", children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={className} role="status" aria-busy="true" aria-label={label}>
      {children}
    </div>
  );
}

/**
 * The page header's place, one width class per line (eyebrow, title, description), with the
 * header's action button on the right when the screen has one.
 */
export function HeaderSkeleton({ eyebrow, title, description, action }: { eyebrow?: string; title: string; description: string; action?: string }) {
  const text = (
    <div className="space-y-2">
      {eyebrow && <Skeleton className={cn("h-3", eyebrow)} />}
      <Skeleton className={cn("h-7", title)} />
      <Skeleton className={cn("h-4", description)} />
    </div>
  );
  if (!action) return text;
  return (
    <div className="flex items-start justify-between">
      {text}
      <Skeleton className={cn("h-9", action)} />
    </div>
  );
}

/** The filter bar's place: one size class list per control, in the bar's order. */
export function FiltersSkeleton({ controls }: { controls: string[] }) {
  return (
    <div className="flex flex-wrap gap-2">
      {controls.map((size, i) => (
        <Skeleton key={i} className={size} />
      ))}
    </div>
  );
}
