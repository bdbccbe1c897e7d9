import { TZDate } from "@date-fns/tz";
import { format, formatDistanceStrict } from "date-fns";

/**
 * A scheduled send stated in words, in the viewer's zone and in UTC:
 * "Saturday 21 November 2026 at 09:00 (Europe/Paris) — 08:00 UTC, in 2 hours".
 */
export function scheduleInWords(iso: string, timeZone: string, now = Date.now()): string {
  const at = new Date(iso);
  const local = format(new TZDate(at.getTime(), timeZone), "EEEE d MMMM yyyy 'at' HH:mm");
  const utc = format(new TZDate(at.getTime(), "UTC"), "d MMM HH:mm");
  const distance = at.getTime() > now ? `in ${formatDistanceStrict(at, now)}` : `${formatDistanceStrict(at, now)} ago`;
  return `${local} (${timeZone}) — ${utc} UTC, ${distance}`;
}

/** Zones to offer: the browser's list when it has one, the viewer's own first. */
export function timeZones(own: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  return [own, ...all.filter((z) => z !== own && z !== "UTC"), ...(own === "UTC" ? [] : ["UTC"])];
}
