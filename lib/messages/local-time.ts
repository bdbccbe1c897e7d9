import { TZDate } from "@date-fns/tz";

/** What an `<input type="datetime-local">` gives: a wall-clock time without a zone. */
export const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A wall-clock time in `timeZone` → the instant, as ISO 8601 in UTC. */
export function localToUtcIso(local: string, timeZone: string): string {
  const m = LOCAL_DATETIME.exec(local);
  if (!m) throw new RangeError("not a local date-time");
  const [, y, mo, d, h, mi] = m.map(Number);
  const date = new TZDate(y, mo - 1, d, h, mi, 0, timeZone);
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError("unknown time zone");
  return new Date(ms).toISOString();
}
