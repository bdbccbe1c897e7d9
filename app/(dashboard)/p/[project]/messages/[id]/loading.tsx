import { ScreenSkeleton } from "@/components/common/screen-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading the message" className="space-y-5">
      <Skeleton className="h-7 w-96" />
      <Skeleton className="h-16 w-full" />
      <div className="grid gap-5 lg:grid-cols-[1fr_22rem]">
        <Skeleton className="h-64" />
        <Skeleton className="h-64" />
      </div>
      <Skeleton className="h-96" />
    </ScreenSkeleton>
  );
}
