"use client";

import * as React from "react";
import { localToUtcIso } from "@/lib/messages/local-time";
import { useNow } from "@/components/hooks/use-now";
import { localInputValue, scheduleInWords, timeZones } from "./schedule-words";

type Patch = Partial<{ sendAt: "now" | "later"; scheduledLocal: string; timeZone: string }>;

/** Now, or a wall-clock time in a chosen zone (the viewer's by default), stated in words and in UTC. */
export function SchedulePicker({
  sendAt,
  local,
  timeZone,
  onChange,
  error,
}: {
  sendAt: "now" | "later";
  local: string;
  timeZone: string;
  onChange: (patch: Patch) => void;
  error?: string;
}) {
  const now = useNow();
  const zones = React.useMemo(() => timeZones(timeZone), [timeZone]);
  let words: string | null = null;
  if (sendAt === "later" && local) {
    try {
      words = scheduleInWords(localToUtcIso(local, timeZone), timeZone, now);
    } catch {
      words = null;
    }
  }
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">When</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="radio" name="sendAt" value="now" checked={sendAt === "now"} onChange={() => onChange({ sendAt: "now" })} />
          Send now
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="sendAt"
            value="later"
            checked={sendAt === "later"}
            onChange={() => onChange({ sendAt: "later", scheduledLocal: local || localInputValue(timeZone, 60) })}
          />
          Schedule for later
        </label>
      </div>
      {sendAt === "later" && (
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
          <div className="space-y-1.5">
            <label htmlFor="timeZone" className="text-sm font-medium">
              Time zone
            </label>
            <select
              id="timeZone"
              value={timeZone}
              onChange={(e) => onChange({ timeZone: e.target.value })}
              className="flex h-9 w-full rounded-md border bg-background px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </div>
          <p id="schedule-words" className="text-sm md:col-span-2" data-testid="schedule-words">
            {words ? `Sends ${words}.` : "Choose when it should go out."}
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  );
}
