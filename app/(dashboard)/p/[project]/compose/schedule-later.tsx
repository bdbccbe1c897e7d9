"use client";

import * as React from "react";
import { localToUtcIso } from "@/lib/messages/local-time";
import { useNow } from "@/components/hooks/use-now";
import { scheduleInWords, timeZones } from "@/components/compose/schedule-words";
import { NativeSelectField } from "@/components/ui/native-select-field";

export type SchedulePatch = Partial<{ sendAt: "now" | "later"; scheduledLocal: string; timeZone: string }>;

/**
 * The date, the zone and the chosen time in words: what "Schedule for later" shows. Loaded
 * when it is chosen (app/(dashboard)/p/[project]/compose/schedule-picker.tsx), with the date library it needs.
 */
export function ScheduleLater({ local, timeZone, onChange, error }: { local: string; timeZone: string; onChange: (patch: SchedulePatch) => void; error?: string }) {
  const now = useNow();
  const zones = React.useMemo(() => timeZones(timeZone), [timeZone]);
  let words: string | null = null;
  if (local) {
    try {
      words = scheduleInWords(localToUtcIso(local, timeZone), timeZone, now);
    } catch {
      words = null;
    }
  }
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <div className="space-y-1.5">
        <label htmlFor="scheduledLocal" className="text-sm font-medium">
          Date and time
        </label>
        <input
          id="scheduledLocal"
          type="datetime-local"
          value={local}
          onChange={(e) => onChange({ scheduledLocal: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby="schedule-words"
          className="flex h-9 w-full rounded-md border bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
        />
      </div>
      <NativeSelectField id="timeZone" label="Time zone" value={timeZone} onChange={(e) => onChange({ timeZone: e.target.value })} choices={zones.map((z) => ({ value: z, label: z }))} />
      <p id="schedule-words" className="text-sm md:col-span-2" data-testid="schedule-words">
        {words ? `Sends ${words}.` : "Choose when it should go out."}
      </p>
    </div>
  );
}
