"use client";

import * as React from "react";
import type { SchedulePatch } from "./schedule-later";

const loadLater = () => import("./schedule-later");
const ScheduleLater = React.lazy(() => loadLater().then((m) => ({ default: m.ScheduleLater })));
const preload = () => void loadLater().catch(() => {});

/** A datetime-local value `minutes` from now, as the clock in `timeZone` reads it. */
export function localInputValue(timeZone: string, minutes: number, now = Date.now()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(now + minutes * 60_000));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}`;
}

/**
 * Now, or a wall-clock time in a chosen zone (the viewer's by default), stated in words and in
 * UTC. The part for later, with its date library, loads when it is chosen (or when the pointer
 * or focus reaches the choice), not with the compose screen.
 */
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
  onChange: (patch: SchedulePatch) => void;
  error?: string;
}) {
  return (
    <fieldset className="space-y-3" onPointerEnter={preload} onFocus={preload}>
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
        <React.Suspense fallback={<div className="h-24" aria-busy="true" />}>
          <ScheduleLater local={local} timeZone={timeZone} onChange={onChange} error={error} />
        </React.Suspense>
      )}
      {error && (
        <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  );
}
