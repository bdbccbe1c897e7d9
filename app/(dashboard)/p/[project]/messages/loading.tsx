import { FiltersSkeleton, HeaderSkeleton, ScreenSkeleton } from "@/components/common/screen-skeleton";
import { TableSkeleton } from "@/components/common/table-skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading messages" className="space-y-5">
      <HeaderSkeleton title="w-32" description="w-[28rem]" />
      <FiltersSkeleton controls={["h-9 w-80", "h-8 w-36", "h-8 w-36", "h-8 w-36", "h-8 w-80"]} />
      <TableSkeleton columns={["w-20", "w-20", "w-40", "w-40", "w-64", "w-20"]} rows={10} />
    </ScreenSkeleton>
  );
}
