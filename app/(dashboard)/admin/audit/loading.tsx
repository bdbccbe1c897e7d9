import { FiltersSkeleton, HeaderSkeleton, ScreenSkeleton } from "@/components/common/screen-skeleton";
import { TableSkeleton } from "@/components/common/table-skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading the audit log" className="space-y-5">
      <HeaderSkeleton title="w-32" description="w-[32rem]" />
      <FiltersSkeleton controls={["h-9 w-72", "h-8 w-44", "h-8 w-44", "h-8 w-40", "h-8 w-36", "h-8 w-80"]} />
      <TableSkeleton columns={["w-20", "w-40", "w-28", "w-24", "w-40", "w-16", "w-6"]} rows={10} />
    </ScreenSkeleton>
  );
}
