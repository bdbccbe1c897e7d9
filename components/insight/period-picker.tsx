"use client";

import { Button } from "@/components/ui/button";

export const PERIODS = ["24h", "7d", "30d"] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<Period, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

/** The period of an insight screen; the screen keeps it in the URL (`?range=`, 7 days when absent). */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  return (
    <div role="group" aria-label="Period" className="inline-flex rounded-md border p-0.5">
      {PERIODS.map((p) => (
        <Button key={p} size="sm" variant={p === value ? "secondary" : "ghost"} aria-pressed={p === value} onClick={() => onChange(p)}>
          {PERIOD_LABELS[p]}
        </Button>
      ))}
    </div>
  );
}

export function periodFrom(value: string | null | undefined): Period {
  return (PERIODS as readonly string[]).includes(value ?? "") ? (value as Period) : "7d";
}
