import { FiltersSkeleton, HeaderSkeleton, ScreenSkeleton } from "@/components/common/screen-skeleton";
import { TableSkeleton } from "@/components/common/table-skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading users">
      <HeaderSkeleton title="w-24" description="w-[28rem]" action="w-32" />
      <FiltersSkeleton controls={["h-9 w-80", "h-9 w-40", "h-9 w-40"]} />
      <TableSkeleton columns={["w-48", "w-16", "w-16", "w-32", "w-20", "w-16", "w-8"]} rows={5} />
    </ScreenSkeleton>
  );
}
