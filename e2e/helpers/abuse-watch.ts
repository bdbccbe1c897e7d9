import { expect } from "@playwright/test";
import { percentile } from "../../scripts/lib/ingest-load";
import type { AbuseTarget } from "./abuse-target";

/**
 * What every attack of the abuse suite must leave true (issue 25): the dashboard's process is
 * the one that started, and `/api/health` answered everyone else within 1 s at p99 all the
 * while. Health is asked over and over while the attack runs, as e2e/batch-check-load.spec.ts
 * does during a large check; an answer that never comes counts as its deadline.
 */
export const HEALTH_P99_MS = 1_000;

/**
 * An answer over a bound names it: in words ("at most…", "another check of yours is still
 * running"), or by its variable (INGEST_MAX_BYTES…). Not case-blind, so an error code such
 * as `ingest_busy` is not taken for a variable.
 */
export const NAMES_A_LIMIT = /[Ll]imit|[Tt]oo (large|long|many)|[Aa]t (most|a time|once)|[Aa]lready|[Ss]till running|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
const HEALTH_DEADLINE_MS = 5_000;

export type HealthRecord = { latencies: number[]; failures: string[] };

export function watchHealth(baseURL: string, gapMs = 100): { stop(): Promise<HealthRecord> } {
  const record: HealthRecord = { latencies: [], failures: [] };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS) });
        await res.text();
        if (res.status !== 200) record.failures.push(`HTTP ${res.status}`);
        record.latencies.push(performance.now() - started);
      } catch (e) {
        record.failures.push((e as Error).name === "TimeoutError" ? `no answer within ${HEALTH_DEADLINE_MS / 1000} s` : (e as Error).message);
        record.latencies.push(Math.max(HEALTH_DEADLINE_MS, performance.now() - started));
      }
      await new Promise((r) => setTimeout(r, gapMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return record;
    },
  };
}

/**
 * Runs `attack` while health is watched, then checks that the process survived and health
 * stayed prompt (soft checks: the test's own checks of the attack's answers still run).
 */
export async function underAttack<T>(target: AbuseTarget, what: string, attack: () => Promise<T>): Promise<T> {
  const watch = watchHealth(target.baseURL);
  let result: T;
  try {
    result = await attack();
  } finally {
    const health = await watch.stop();
    const sorted = [...health.latencies].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    console.log(`${what}: /api/health answered ${sorted.length} times, p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(p99)} ms, slowest ${Math.round(sorted.at(-1) ?? NaN)} ms`);
    const state = target.alive();
    expect.soft(state.alive, `${what}: the dashboard process (pid ${state.pid}) is still the one that started\n${state.tail}`).toBe(true);
    expect.soft(health.failures.slice(0, 5), `${what}: /api/health failed ${health.failures.length} times`).toEqual([]);
    expect.soft(p99, `${what}: /api/health p99 over ${sorted.length} answers`).toBeLessThan(HEALTH_P99_MS);
  }
  return result;
}
