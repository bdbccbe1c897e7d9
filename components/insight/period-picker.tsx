"use client";

import { Button } from "@/components/ui/button";
import { OVERVIEW_RANGES, RANGE_LABELS, type OverviewRange } from "@/lib/insight/ranges";

/** The period of an insight screen; the screen keeps it in the URL (`?range=`, read with rangeFrom: 7 days when absent). */
export function PeriodPicker({ value, onChange }: { value: OverviewRange; onChange: (period: OverviewRange) => void }) {
  return (
    <div role="group" aria-label="Period" className="inline-flex rounded-md border p-0.5">
      {OVERVIEW_RANGES.map((p) => (
        <Button key={p} size="sm" variant={p === value ? "secondary" : "ghost"} aria-pressed={p === value} onClick={() => onChange(p)}>
          {RANGE_LABELS[p]}
        </Button>
      ))}
    </div>
  );
}
