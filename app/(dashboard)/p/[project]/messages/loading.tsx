import { TableSkeleton } from "@/components/common/table-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="space-y-5" role="status" aria-busy="true" aria-label="Loading messages">
      <div className="space-y-2">
        <Skeleton className="h-7 w-32" />
        <Skeleton className="h-4 w-[28rem]" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Skeleton className="h-9 w-80" />
        <Skeleton className="h-8 w-36" />
        <Skeleton className="h-8 w-36" />
        <Skeleton className="h-8 w-36" />
        <Skeleton className="h-8 w-80" />
      </div>
      <TableSkeleton columns={["w-20", "w-20", "w-40", "w-40", "w-64", "w-20"]} rows={10} />
    </div>
  );
}
