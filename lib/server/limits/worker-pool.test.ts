import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withTimerGap } from "@/lib/test/timer-gap";
import { createWorkerPool, WorkerTaskError, type WorkerPool } from "./worker-pool";

/**
 * The pool with real worker threads running a small plain-JavaScript worker that speaks the
 * pool's protocol: it spins the CPU for `spin` ms, loops for ever, allocates without end, or
 * throws an error of its own, as told; it says it is ready `readyAfterMs` after it starts.
 */
const WORKER = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, payload }) => {
  if (payload.forever) for (;;) {}
  if (payload.allocate) { const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); }
  if (payload.fail) return parentPort.postMessage({ id, ok: false, error: { status: 400, code: "bad", message: payload.fail, param: "x" } });
  const until = Date.now() + (payload.spin ?? 0);
  while (Date.now() < until) {}
  parentPort.postMessage({ id, ok: true, value: payload.echo ?? null });
});
setTimeout(() => parentPort.postMessage({ ready: true }), require("node:worker_threads").workerData?.readyAfterMs ?? 0);
`;
let spawned = 0;
const spawn = (options: { heapMb?: number; readyAfterMs?: number } = {}) => () => {
  spawned++;
  return new Worker(WORKER, {
    eval: true,
    workerData: { readyAfterMs: options.readyAfterMs },
    ...(options.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: options.heapMb } } : {}),
  });
};

let pool: WorkerPool | null = null;
const make = (o: Partial<Parameters<typeof createWorkerPool>[0]> = {}) => (pool = createWorkerPool({ spawn: spawn(), size: 1, maxQueue: 2, timeoutMs: 5000, ...o }));
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe("worker pool", () => {
  it("runs the work off this thread: a timer fires on schedule while a worker spins for a second", async () => {
    const p = make();
    await p.run({ echo: "warm" });
    const { value, worstGapMs } = await withTimerGap(() => p.run({ spin: 1000, echo: "done" }));
    expect(value).toBe("done");
    expect(worstGapMs).toBeLessThan(300);
  });

  it("stops a task past its deadline by terminating its worker, and a new worker takes the next task", async () => {
    // 1,500 ms: the next task's time includes starting its new worker, slow on a loaded machine.
    const p = make({ timeoutMs: 1500 });
    const started = Date.now();
    await expect(p.run({ forever: true })).rejects.toMatchObject({ name: "WorkerPoolError", reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await p.run({ echo: "after" })).toBe("after");
  });

  it("counts a task's wait for a busy worker in its deadline: it runs only for what is left", async () => {
    const p = make({ timeoutMs: 1000 });
    await p.run({ echo: "warm" });
    const first = p.run({ spin: 600, echo: "first" });
    const queuedAt = Date.now();
    // 800 ms of work fits a deadline of 1000 ms, but not the 400 ms left after waiting 600 ms.
    const second = p.run({ spin: 800, echo: "second" }).catch((e: unknown) => e);
    expect(await first).toBe("first");
    expect(await second).toMatchObject({ name: "WorkerPoolError", reason: "timeout", waitedMs: expect.any(Number) });
    expect(((await second) as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(500);
    expect(Date.now() - queuedAt).toBeLessThan(2000);
  });

  it("answers a task still waiting for a worker at its deadline then, unstarted (`expired`)", async () => {
    const p = make({ spawn: spawn({ readyAfterMs: 1500 }), timeoutMs: 300 });
    const queuedAt = Date.now();
    const error = await p.run({ echo: "late" }).catch((e: unknown) => e);
    expect(Date.now() - queuedAt, "answered before the worker came up (1500 ms)").toBeLessThan(1400);
    expect(error).toMatchObject({ name: "WorkerPoolError", reason: "expired" });
    expect((error as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(300);
    expect(p.stats()).toMatchObject({ running: 0, queued: 0 });
    // The worker it was waiting for still comes up and takes the next task.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await p.run({ echo: "next" })).toBe("next");
  });

  it("reports a task that expired unstarted as having waited its whole deadline, whatever Date.now() says", async () => {
    // Node's timer clock may fire the expiry a millisecond before Date.now() has moved by the
    // deadline (a full run measured 299 of 300 ms); here Date.now() does not move at all.
    const p = make({ spawn: spawn({ readyAfterMs: 1500 }), timeoutMs: 100 });
    const frozen = vi.spyOn(Date, "now").mockReturnValue(Date.now());
    try {
      const error = await p.run({ echo: "late" }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "WorkerPoolError", reason: "expired", waitedMs: 100 });
    } finally {
      frozen.mockRestore();
    }
  });

  it("queues at most maxQueue tasks behind busy workers and refuses one more at once", async () => {
    const p = make({ size: 1, maxQueue: 2 });
    await p.run({ echo: "warm" });
    const running = p.run({ spin: 400, echo: 1 });
    const queued = [p.run({ echo: 2 }), p.run({ echo: 3 })];
    await expect(p.run({ echo: 4 })).rejects.toMatchObject({ reason: "busy" });
    expect(p.stats()).toMatchObject({ workers: 1, running: 1, queued: 2 });
    expect(await Promise.all([running, ...queued])).toEqual([1, 2, 3]);
  });

  it("uses at most `size` workers at once", async () => {
    const before = spawned;
    const p = make({ size: 2, maxQueue: 10 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => p.run({ spin: 50, echo: i })));
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(spawned - before).toBe(2);
  });

  it("fails a task whose worker runs out of its heap, and carries on", async () => {
    pool = createWorkerPool({ spawn: spawn({ heapMb: 16 }), size: 1, maxQueue: 2, timeoutMs: 20_000 });
    await expect(pool.run({ allocate: true })).rejects.toMatchObject({ reason: "memory" });
    expect(await pool.run({ echo: "alive" })).toBe("alive");
  });

  it("fails a task when its worker cannot start, without starting workers for ever", async () => {
    let starts = 0;
    pool = createWorkerPool({ spawn: () => (starts++, new Worker("throw new Error('broken entry')", { eval: true })), size: 1, maxQueue: 5, timeoutMs: 5000 });
    const outcomes = await Promise.allSettled([pool.run({}), pool.run({}), pool.run({})]);
    expect(outcomes.map((o) => o.status === "rejected" && (o.reason as { reason: string }).reason)).toEqual(["crashed", "crashed", "crashed"]);
    expect(starts).toBe(3);
  });

  it("hands back the worker's own error as data", async () => {
    const p = make();
    const error = await p.run({ fail: "no good" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerTaskError);
    expect((error as WorkerTaskError).detail).toEqual({ status: 400, code: "bad", message: "no good", param: "x" });
  });

  it("drops a waiting task whose caller went away", async () => {
    const p = make();
    await p.run({ echo: "warm" });
    const running = p.run({ spin: 300, echo: "first" });
    const controller = new AbortController();
    const waiting = p.run({ echo: "never" }, { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ reason: "aborted" });
    expect(p.stats().queued).toBe(0);
    expect(await running).toBe("first");
  });

  it("lets an idle worker go after idleMs", async () => {
    const p = make({ idleMs: 100 });
    await p.run({ echo: 1 });
    expect(p.stats().workers).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(p.stats().workers).toBe(0);
    expect(await p.run({ echo: 2 })).toBe(2);
  });
});
