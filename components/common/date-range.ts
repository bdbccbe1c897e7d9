/**
 * Date-range filters show calendar days in the viewer's zone but travel in the URL as exact
 * instants, so a link pasted to a colleague in another zone selects the same rows.
 */
export function dayToIso(day: string, edge: "start" | "end"): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const d = edge === "start" ? new Date(year, month, date) : new Date(year, month, date, 23, 59, 59, 999);
  // 2026-02-31 would roll over into March: not a day.
  if (d.getFullYear() !== year || d.getMonth() !== month || d.getDate() !== date) return null;
  return d.toISOString();
}

export function isoToDay(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
