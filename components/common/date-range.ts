import { endOfDay, format, isValid, parse, startOfDay } from "date-fns";

/**
 * Date-range filters show calendar days in the viewer's zone but travel in the URL as exact
 * instants, so a link pasted to a colleague in another zone selects the same rows.
 */
export function dayToIso(day: string, edge: "start" | "end"): string | null {
  const d = parse(day, "yyyy-MM-dd", new Date());
  if (!isValid(d)) return null;
  return (edge === "start" ? startOfDay(d) : endOfDay(d)).toISOString();
}

export function isoToDay(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return isValid(d) ? format(d, "yyyy-MM-dd") : "";
}
