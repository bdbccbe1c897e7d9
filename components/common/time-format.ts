import { format } from "date-fns";
import { tz } from "@date-fns/tz";

/**
 * Time as support staff read it: relative for scanning ("3 min ago", "in 2 h"), absolute in
 * the viewer's zone and in UTC for pasting into a ticket or matching a log line.
 */
export function toDate(value: Date | string | number): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function formatRelative(date: Date, now: Date = new Date()): string {
  const diff = date.getTime() - now.getTime();
  const abs = Math.abs(diff);
  const future = diff > 0;
  const say = (n: number, unit: string) => (future ? `in ${n} ${unit}` : `${n} ${unit} ago`);
  if (abs < 45_000) return future ? "in a moment" : "just now";
  if (abs < HOUR) return say(Math.max(1, Math.round(abs / MINUTE)), "min");
  if (abs < DAY) return say(Math.round(abs / HOUR), "h");
  const days = Math.round(abs / DAY);
  if (days === 1) return future ? "tomorrow" : "yesterday";
  if (days < 30) return say(days, "days");
  // Past a month, a date says more than "5 months ago".
  return date.getFullYear() === now.getFullYear() ? format(date, "d MMM") : format(date, "d MMM yyyy");
}

/** "31 Jan 2026, 09:00:05 CET" in the given zone (the viewer's by default). */
export function formatAbsolute(date: Date, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const text = format(date, "d MMM yyyy, HH:mm:ss", { in: tz(zone) });
  return `${text} ${zoneName(date, zone)}`;
}

export function formatUtc(date: Date): string {
  return `${format(date, "yyyy-MM-dd HH:mm:ss", { in: tz("UTC") })} UTC`;
}

function zoneName(date: Date, timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" }).formatToParts(date).find((p) => p.type === "timeZoneName");
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
