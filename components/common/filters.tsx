"use client";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { dayToIso, isoToDay } from "./date-range";

export { FilterSelect } from "./filter-select";

/**
 * From and to days in the viewer's zone, sent on as instants (start of the first day, end of
 * the last: see date-range.ts); each end keeps the other from crossing it.
 */
export function DateRangeFilter({
  idPrefix,
  from,
  to,
  onChange,
}: {
  idPrefix: string;
  from: string | undefined | null;
  to: string | undefined | null;
  onChange: (patch: { from?: string | null; to?: string | null }) => void;
}) {
  return (
    <div className="flex items-center gap-1.5">
      <Label htmlFor={`${idPrefix}-from`} className="text-xs text-muted-foreground">
        From
      </Label>
      <Input
        id={`${idPrefix}-from`}
        type="date"
        className="w-40"
        value={isoToDay(from)}
        max={isoToDay(to) || undefined}
        onChange={(e) => onChange({ from: e.target.value ? dayToIso(e.target.value, "start") : null })}
      />
      <Label htmlFor={`${idPrefix}-to`} className="text-xs text-muted-foreground">
        to
      </Label>
      <Input
        id={`${idPrefix}-to`}
        type="date"
        className="w-40"
        value={isoToDay(to)}
        min={isoToDay(from) || undefined}
        onChange={(e) => onChange({ to: e.target.value ? dayToIso(e.target.value, "end") : null })}
      />
    </div>
  );
}
