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
  const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
  return date.getFullYear() === now.getFullYear() ? day : `${day} ${date.getFullYear()}`;
}

/** "31 Jan 2026, 09:00:05 CET" in the given zone (the viewer's by default). */
export function formatAbsolute(date: Date, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const p = partsIn(date, zone);
  return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute}:${p.second} ${zoneName(date, zone)}`;
}

export function formatUtc(date: Date): string {
  const p = partsIn(date, "UTC");
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} UTC`;
}

// English month abbreviations, fixed: Intl's differ between locales and ICU versions ("Sept").
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const numericFormats = new Map<string, Intl.DateTimeFormat>();

/** The date's calendar fields in `timeZone`, zero-padded (the platform's Intl: no date library to ship). */
function partsIn(date: Date, timeZone: string): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  let f = numericFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    numericFormats.set(timeZone, f);
  }
  const out = { year: "", month: "", day: "", hour: "", minute: "", second: "" };
  for (const part of f.formatToParts(date)) if (part.type in out) out[part.type as keyof typeof out] = part.value;
  return out;
}

function zoneName(date: Date, timeZone: string): string {
  try {
    const part = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" }).formatToParts(date).find((p) => p.type === "timeZoneName");
    return part?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
