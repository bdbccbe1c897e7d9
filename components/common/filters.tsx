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
  const fromDay = isoToDay(from);
  const toDay = isoToDay(to);
  return (
    <div className="flex items-center gap-1.5 max-md:w-full">
      <DayInput id={`${idPrefix}-from`} label="From" value={fromDay} max={toDay || undefined} onDay={(day) => onChange({ from: day ? dayToIso(day, "start") : null })} />
      <DayInput id={`${idPrefix}-to`} label="to" value={toDay} min={fromDay || undefined} onDay={(day) => onChange({ to: day ? dayToIso(day, "end") : null })} />
    </div>
  );
}

/** One end of the range: a labelled day input, bounded by the other end. */
function DayInput({ id, label, onDay, ...valueAndBound }: { id: string; label: string; value: string; min?: string; max?: string; onDay: (day: string) => void }) {
  return (
    <>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Input id={id} type="date" className="w-40 max-md:w-auto max-md:min-w-0 max-md:flex-1" {...valueAndBound} onChange={(e) => onDay(e.target.value)} />
    </>
  );
}
