import { HeaderSkeleton, ScreenSkeleton } from "@/components/common/screen-skeleton";
import { TableSkeleton } from "@/components/common/table-skeleton";

export default function Loading() {
  return (
    <ScreenSkeleton label="Loading projects">
      <HeaderSkeleton title="w-32" description="w-96" action="w-40" />
      <TableSkeleton columns={["w-40", "w-48", "w-24", "w-8"]} rows={4} />
    </ScreenSkeleton>
  );
}
