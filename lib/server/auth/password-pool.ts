import "server-only";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/server/env";
import { busyError } from "@/lib/server/limits/one-at-a-time";
import { WORKER_FROM_SOURCE, workerFromSource } from "@/lib/server/limits/source-worker";
import { createWorkerPool, WorkerPoolError, type WorkerPool } from "@/lib/server/limits/worker-pool";
import { waitInWords } from "./throttle";

/**
 * Every password check of the process (sign-in, re-confirmation) runs in these worker threads
 * (password-worker.ts): PASSWORD_WORKERS at once, PASSWORD_QUEUE waiting, one more refused at
 * once. On the request thread each bcrypt compare held the event loop ~180 ms, so twenty
 * sign-ins with made-up emails, well inside the throttle's free tries, stalled every other
 * request (health included) for seconds. The bound is enforced before any bcrypt work starts.
 */

/** A check's time from its arrival, the wait for a worker included (a compare is ~0.2 s). */
export const PASSWORD_TIMEOUT_MS = 5_000;
/** What a refused check is told to wait: the queue drains in about a second. */
export const PASSWORD_RETRY_AFTER_S = 2;
export const PASSWORD_BUSY = "sign_ins_busy";

const options = { name: "password-checks" };

function spawn(): Worker {
  if (WORKER_FROM_SOURCE) {
    // Not `new URL("./password-worker.ts", import.meta.url)`: Next would copy the file as an asset.
    return workerFromSource(import.meta.url.replace(/password-pool\.ts$/, "password-worker.ts"), import.meta.url, options);
  }
  // Written out in full: Next bundles a worker only from `new Worker(new URL("…", import.meta.url))`.
  return new Worker(new URL("./password-worker.ts", import.meta.url), options);
}

// One pool per process, though Next may load this module in more than one bundle (pages, routes).
const KEY = Symbol.for("mail-dashboard.password-pool");
type Holder = { [KEY]?: WorkerPool };
let timeoutMs = PASSWORD_TIMEOUT_MS;

function pool(): WorkerPool {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const e = env();
    holder[KEY] = createWorkerPool({ spawn, size: e.PASSWORD_WORKERS, maxQueue: e.PASSWORD_QUEUE, timeoutMs });
  }
  return holder[KEY];
}

/**
 * Tests: the next check starts a pool with the settings of the environment then. A test that
 * counts what the bounds take gives the checks longer than their 5 s, so a loaded machine's
 * slow compares do not expire and change the count.
 */
export async function resetPasswordPool(opts: { timeoutMs?: number } = {}): Promise<void> {
  timeoutMs = opts.timeoutMs ?? PASSWORD_TIMEOUT_MS;
  const holder = globalThis as Holder;
  const current = holder[KEY];
  delete holder[KEY];
  await current?.close();
}

export function passwordPoolStats() {
  return (globalThis as Holder)[KEY]?.stats() ?? { workers: 0, running: 0, queued: 0 };
}

/** Nothing about the account: the process is checking as many passwords as it may (PASSWORD_WORKERS, PASSWORD_QUEUE). */
export const busyMessage = (waitMs: number) => `Too many sign-ins at once. Try again in ${waitInWords(waitMs)}.`;

/** bcrypt compare in a worker; a full pool is a 429 `sign_ins_busy` with Retry-After, before any work. */
export async function compareInWorker(password: string, hash: string): Promise<boolean> {
  try {
    return await pool().run<boolean>({ password, hash });
  } catch (e) {
    if (e instanceof WorkerPoolError && (e.reason === "busy" || e.reason === "expired")) {
      throw busyError(PASSWORD_BUSY, busyMessage(PASSWORD_RETRY_AFTER_S * 1000), PASSWORD_RETRY_AFTER_S);
    }
    // A worker that crashed or ran out of time: nothing is known about the password.
    throw new AppError(503, "password_check_failed", "The password could not be checked. Try again in a moment.");
  }
}
