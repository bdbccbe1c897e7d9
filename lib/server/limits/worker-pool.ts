import "server-only";
import type { Worker } from "node:worker_threads";

/**
 * A small pool of worker threads for CPU-heavy work an input can cause (parsing a draft's
 * html), so the server's one thread keeps answering everyone else meanwhile. Every bound is
 * enforced before the work starts:
 * - at most `size` workers, each running one task at a time;
 * - at most `maxQueue` tasks waiting; one more is refused at once (`busy`);
 * - each task has `timeoutMs` in all from the moment it is handed to `run`, waiting for a
 *   worker included: one still waiting then is dropped (`expired`), one running is stopped by
 *   terminating its worker (the only way to stop a runaway computation) and fails (`timeout`,
 *   with how long it had waited, so the caller can tell a busy server from heavy input);
 * - a worker that dies fails its task (`memory` when out of its `resourceLimits` heap, else
 *   `crashed`) and is replaced on demand;
 * - an idle worker exits after `idleMs`, giving its memory back.
 *
 * The protocol: the worker posts `{ ready: true }` once its modules are loaded; then it gets
 * `{ id, payload }` and answers `{ id, ok: true, value }` or `{ id, ok: false, error }`, where
 * `error` is plain data (an AppError's status, code, message and param).
 */
export type WorkerPoolOptions = {
  /** Creates one worker. `new Worker(new URL("./x.ts", import.meta.url))` must be written at the call site for Next to bundle it. */
  spawn: () => Worker;
  size: number;
  maxQueue: number;
  timeoutMs: number;
  /** A fresh worker that has not said it is ready within this is given up (default 60 s). */
  startTimeoutMs?: number;
  idleMs?: number;
};

export type PlainError = { message: string; status?: number; code?: string; param?: string | null };

export class WorkerPoolError extends Error {
  constructor(
    readonly reason: "busy" | "expired" | "timeout" | "memory" | "crashed" | "aborted",
    message: string,
    /** How long the task waited for a worker before it ran (or was dropped). */
    readonly waitedMs = 0,
  ) {
    super(message);
    this.name = "WorkerPoolError";
  }
}

/** The worker's own error (bad input it found), carried back as data. */
export class WorkerTaskError extends Error {
  constructor(readonly detail: PlainError) {
    super(detail.message);
    this.name = "WorkerTaskError";
  }
}

type Task = {
  id: number;
  payload: unknown;
  queuedAt: number;
  /** Drops the task when it is still waiting at its deadline. */
  expiry: NodeJS.Timeout | null;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

type Slot = {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
};

type Reply = { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; error: PlainError };

export type WorkerPool = {
  run<T>(payload: unknown, options?: { signal?: AbortSignal }): Promise<T>;
  /** Workers alive, tasks running and waiting: for tests and the health of the pool. */
  stats(): { workers: number; running: number; queued: number };
  close(): Promise<void>;
};

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const { size, maxQueue, timeoutMs, startTimeoutMs = 60_000, idleMs = 60_000 } = options;
  const slots = new Set<Slot>();
  const queue: Task[] = [];
  let nextId = 1;

  const settle = (task: Task) => {
    if (task.onAbort) task.signal?.removeEventListener("abort", task.onAbort);
    if (task.expiry) clearTimeout(task.expiry);
    task.expiry = null;
  };

  const retire = (slot: Slot) => {
    if (!slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idle) clearTimeout(slot.idle);
    slot.worker.removeAllListeners();
    // An exit or error after this is of no interest; terminate never throws for a live worker.
    slot.worker.on("error", () => {});
    void slot.worker.terminate();
  };

  const fail = (slot: Slot, error: Error) => {
    // A worker that fails before it is ready fails the oldest waiting task: a broken entry
    // then costs one start per task, rather than starts without end while tasks wait.
    const task = slot.task ?? (slot.ready ? undefined : queue.shift());
    slot.task = null;
    retire(slot);
    if (task) {
      settle(task);
      task.reject(error);
    }
    pump();
  };

  const expired = (waitedMs: number) => new WorkerPoolError("expired", `No worker was free within ${timeoutMs} ms; the work was not started.`, waitedMs);

  /** Gives `task` to the ready idle `slot`; false when the task's time is already up (it is failed, unstarted). */
  const start = (slot: Slot, task: Task): boolean => {
    // Off the queue: neither its expiry nor its caller's abort applies any more.
    settle(task);
    const waitedMs = Date.now() - task.queuedAt;
    if (waitedMs >= timeoutMs) {
      // Its expiry timer is due but has not fired yet (this thread was busy): the same answer.
      task.reject(expired(waitedMs));
      return false;
    }
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.task = task;
    // What is left of the task's time: it may not run past the deadline it was given on arrival.
    slot.timer = setTimeout(() => {
      fail(slot, new WorkerPoolError("timeout", `The work took longer than ${timeoutMs} ms (${waitedMs} ms of it waiting for a worker) and was stopped.`, waitedMs));
    }, timeoutMs - waitedMs);
    slot.timer.unref();
    slot.worker.postMessage({ id: task.id, payload: task.payload });
    return true;
  };

  const becomeIdle = (slot: Slot) => {
    slot.idle = setTimeout(() => retire(slot), idleMs);
    slot.idle.unref();
  };

  const spawn = (): Slot => {
    const worker = options.spawn();
    worker.unref();
    const slot: Slot = { worker, ready: false, task: null, timer: null, idle: null };
    slots.add(slot);
    // Loading the worker's modules is bounded too, apart from the task's own deadline.
    slot.timer = setTimeout(() => fail(slot, new WorkerPoolError("crashed", `A worker did not start within ${startTimeoutMs} ms.`)), startTimeoutMs);
    slot.timer.unref();
    worker.on("message", (reply: Reply) => {
      if ("ready" in reply) {
        slot.ready = true;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        pump();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== reply.id) return;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.task = null;
      settle(task);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(new WorkerTaskError(reply.error));
      pump();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") fail(slot, new WorkerPoolError("memory", "The work needed more memory than a worker may use and was stopped."));
      else fail(slot, new WorkerPoolError("crashed", "A worker failed while doing the work."));
    });
    worker.on("exit", () => fail(slot, new WorkerPoolError("crashed", "A worker stopped while doing the work.")));
    return slot;
  };

  /** Hands waiting tasks to ready idle workers, and starts workers while there is work and room. */
  function pump() {
    for (const slot of slots) {
      if (!queue.length) break;
      if (slot.ready && !slot.task) while (queue.length && !start(slot, queue.shift()!));
    }
    const starting = [...slots].filter((s) => !s.ready).length;
    while (queue.length > starting && slots.size < size) spawn();
    for (const slot of slots) if (slot.ready && !slot.task && !slot.idle) becomeIdle(slot);
  }

  return {
    run<T>(payload: unknown, { signal }: { signal?: AbortSignal } = {}): Promise<T> {
      if (signal?.aborted) return Promise.reject(new WorkerPoolError("aborted", "The request was cancelled."));
      // The queue also holds, briefly, tasks a free or starting worker is about to take: those do not count as waiting.
      const busyWorkers = [...slots].filter((s) => s.task).length;
      if (queue.length >= maxQueue + (size - busyWorkers)) return Promise.reject(new WorkerPoolError("busy", `${queue.length} tasks are already waiting, the most this server queues.`));
      return new Promise<T>((resolve, reject) => {
        const task: Task = { id: nextId++, payload, queuedAt: Date.now(), expiry: null, resolve: resolve as (value: unknown) => void, reject, signal };
        const drop = (error: WorkerPoolError) => {
          const at = queue.indexOf(task);
          if (at === -1) return;
          queue.splice(at, 1);
          settle(task);
          reject(error);
        };
        // Waiting counts toward the deadline: a task still queued at it is answered then, not when a worker frees up.
        // Node's timers keep their own millisecond clock, which may fire them a millisecond short
        // of what Date.now() measures: the timer firing is the deadline reached.
        task.expiry = setTimeout(() => drop(expired(Math.max(timeoutMs, Date.now() - task.queuedAt))), timeoutMs);
        task.expiry.unref();
        if (signal) {
          // A task still waiting is dropped when its caller goes away; one running finishes (its worker is shared).
          task.onAbort = () => drop(new WorkerPoolError("aborted", "The request was cancelled."));
          signal.addEventListener("abort", task.onAbort, { once: true });
        }
        queue.push(task);
        pump();
      });
    },
    stats() {
      const running = [...slots].filter((s) => s.task).length;
      return { workers: slots.size, running, queued: queue.length };
    },
    async close() {
      for (const task of queue.splice(0)) {
        settle(task);
        task.reject(new WorkerPoolError("aborted", "The pool was closed."));
      }
      for (const slot of [...slots]) fail(slot, new WorkerPoolError("aborted", "The pool was closed."));
    },
  };
}
