import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

/** A table-shaped placeholder: one width class per column, so it matches the table it stands for. */
export function TableSkeleton({ columns, rows = 6, className }: { columns: string[]; rows?: number; className?: string }) {
  return (
    <div className={cn("overflow-hidden rounded-lg border bg-card", className)} aria-hidden="true">
      <div className="flex gap-6 border-b bg-muted/60 px-3 py-3">
        {columns.map((w, i) => (
          <Skeleton key={i} className={cn("h-3", w)} />
        ))}
      </div>
      {Array.from({ length: rows }, (_, r) => (
        <div key={r} className="flex items-center gap-6 border-b px-3 py-3.5 last:border-0">
          {columns.map((w, i) => (
            <Skeleton key={i} className={cn("h-4", w)} />
          ))}
        </div>
      ))}
    </div>
  );
}
