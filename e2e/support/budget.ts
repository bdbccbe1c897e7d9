import { timeScale } from "../../scripts/lib/time-scale";

/**
 * A test's time budget: the figure written at the usual pace, times the run's time scale
 * (scripts/lib/time-scale.ts). Every test budget and every wait on background work goes
 * through here; a bound a test asserts on the dashboard's own latency does not.
 */
const TIME_SCALE = timeScale();

export function budget(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}
