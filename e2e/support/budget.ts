/**
 * A test's time budget, grown by the run's time scale (scripts/lib/time-scale.ts: how much
 * slower this machine computes than the one the budgets were set on). Every test budget and
 * every wait on background work goes through here; a bound a test asserts on the dashboard's
 * own latency does not.
 */
const scale = Number(process.env.E2E_TIME_SCALE ?? "1");

export const TIME_SCALE = Number.isFinite(scale) && scale >= 1 ? scale : 1;

export function budget(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}
