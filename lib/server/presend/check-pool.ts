import "server-only";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";
import type { PresendDraftParsed, PresendResult } from "@/lib/schemas/presend";
import { env, MAX_PRESEND_WORKERS, PRESEND_WORKER_HEAP_MB } from "@/lib/server/env";
import { busyError } from "@/lib/server/limits/one-at-a-time";
import { WORKER_FROM_SOURCE, workerFromSource } from "@/lib/server/limits/source-worker";
import { createWorkerPool, WorkerPoolError, WorkerTaskError, type WorkerPool } from "@/lib/server/limits/worker-pool";

/**
 * The worker threads the pre-send checks run in (check-worker.ts): parsing a megabyte of html
 * and matching it against the client-support data takes seconds of CPU, which on the request
 * thread froze every other request meanwhile. PRESEND_WORKERS threads (half the CPUs, at most 4), at
 * most PRESEND_QUEUE checks waiting, PRESEND_TIMEOUT_MS per check, waiting for a worker included.
 */

/**
 * In Next (built or `next dev`) the worker is Next's bundle of check-worker.ts, from the
 * `new Worker(new URL(…, import.meta.url))` below; outside Next it loads the source (source-worker.ts).
 */
const options = { name: "presend-checks", resourceLimits: { maxOldGenerationSizeMb: PRESEND_WORKER_HEAP_MB } };

function spawn(): Worker {
  if (WORKER_FROM_SOURCE) {
    // Not `new URL("./check-worker.ts", import.meta.url)`: Next would copy the file as an asset.
    return workerFromSource(import.meta.url.replace(/check-pool\.ts$/, "check-worker.ts"), import.meta.url, options);
  }
  // Written out in full: Next bundles a worker only from `new Worker(new URL("…", import.meta.url))`.
  return new Worker(new URL("./check-worker.ts", import.meta.url), options);
}

export type CheckPoolSettings = { workers: number; queue: number; timeoutMs: number };

/**
 * Workers when PRESEND_WORKERS is unset: half the CPUs, leaving the rest to requests, at least
 * one, and at most MAX_PRESEND_WORKERS however many CPUs there are, as each may hold its own heap.
 */
export function defaultCheckWorkers(cpus: number): number {
  return Math.min(MAX_PRESEND_WORKERS, Math.max(1, Math.floor(cpus / 2)));
}

export function checkPoolSettings(): CheckPoolSettings {
  const e = env();
  return { workers: e.PRESEND_WORKERS || defaultCheckWorkers(availableParallelism()), queue: e.PRESEND_QUEUE, timeoutMs: e.PRESEND_TIMEOUT_MS };
}

// One pool per process, though Next may load this module in more than one bundle (pages, routes).
const KEY = Symbol.for("mail-dashboard.presend-pool");
type Holder = { [KEY]?: { pool: WorkerPool; settings: CheckPoolSettings } };

function pool(): { pool: WorkerPool; settings: CheckPoolSettings } {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const settings = checkPoolSettings();
    holder[KEY] = { settings, pool: createWorkerPool({ spawn, size: settings.workers, maxQueue: settings.queue, timeoutMs: settings.timeoutMs }) };
  }
  return holder[KEY];
}

/** Tests: the next check starts a pool with the settings of the environment then. */
export async function resetCheckPool(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  delete holder[KEY];
  await current?.pool.close();
}

export function checkPoolStats() {
  return (globalThis as Holder)[KEY]?.pool.stats() ?? { workers: 0, running: 0, queued: 0 };
}

export type CheckTask = { draft: PresendDraftParsed; mime: boolean };
export type CheckOutput = { result: Omit<PresendResult, "spam">; mime?: Uint8Array };

/** The checks of a parsed draft in a worker, and its MIME message when `mime`; every failure is an AppError naming its limit. */
export async function runChecksInWorker(task: CheckTask, signal?: AbortSignal): Promise<CheckOutput> {
  const { pool: workers, settings } = pool();
  try {
    return await workers.run<CheckOutput>(task, { signal });
  } catch (e) {
    throw toAppError(e, settings);
  }
}

/**
 * The answer for a check the pool failed. The deadline counts the wait for a worker too, so a
 * check that ran out of time says which it was: the server busy with other checks (nothing is
 * wrong with the draft: a 429 to try again) or the draft too heavy to check (a 422 on the html).
 */
export function toAppError(e: unknown, settings: CheckPoolSettings): unknown {
  if (e instanceof WorkerTaskError) {
    const { status = 500, code = "internal_error", message, param = null } = e.detail;
    return new AppError(status, code, message, param);
  }
  if (!(e instanceof WorkerPoolError)) return e;
  const seconds = (settings.timeoutMs / 1000).toLocaleString("en-US");
  switch (e.reason) {
    case "busy":
      return busyError("checks_busy", `The server is busy with other drafts' checks (${settings.queue} waiting, the most it holds, PRESEND_QUEUE). Try again in a moment.`, 2);
    case "expired":
      return busyError("checks_busy", `The server was busy with other drafts' checks: no worker was free within ${seconds} s (PRESEND_TIMEOUT_MS), so this draft was not checked. Nothing is wrong with it; try again in a moment.`, 2);
    case "timeout": {
      // A check left less than half its time by the wait may well fit once the server is idle.
      if (e.waitedMs * 2 >= settings.timeoutMs) {
        const waited = (e.waitedMs / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 });
        return busyError("checks_busy", `The server was busy with other drafts' checks: this draft waited ${waited} s for a worker and ran out of the ${seconds} s a check may take (PRESEND_TIMEOUT_MS). Try again in a moment.`, 2);
      }
      return new AppError(422, "checks_timeout", `draft.html: the checks took longer than ${seconds} s (PRESEND_TIMEOUT_MS) and were stopped; the draft is too heavy to check. Shorten the html; Gmail clips anything past 102 KB anyway.`, "draft.html");
    }
    case "memory":
      return new AppError(422, "checks_too_large", `draft.html: the checks needed more than the ${PRESEND_WORKER_HEAP_MB} MB a check may use and were stopped. Shorten the html.`, "draft.html");
    case "aborted":
      return new AppError(503, "checks_cancelled", "The checks were cancelled.");
    default:
      return new AppError(500, "checks_failed", "The checks stopped unexpectedly; try again.");
  }
}
