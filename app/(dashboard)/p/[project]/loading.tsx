import { HeaderSkeleton, ScreenSkeleton } from "@/components/common/screen-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading">
      <HeaderSkeleton eyebrow="w-16" title="w-56" description="w-72" />
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {Array.from({ length: 9 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
    </ScreenSkeleton>
  );
}
