import { describe, expect, it } from "vitest";
import { WorkerPoolError } from "@/lib/server/limits/worker-pool";
import { defaultCheckWorkers, toAppError } from "./check-pool";

/**
 * A check's deadline counts its wait for a worker, so running out of time is either the
 * server's doing (busy) or the draft's (too heavy); the answer must say which.
 */
const settings = { workers: 1, queue: 8, timeoutMs: 10_000 };

describe("a check that ran out of time", () => {
  it("after waiting most of its time for a worker: a 429 saying the server was busy, to try again", () => {
    expect(toAppError(new WorkerPoolError("timeout", "stopped", 6_500), settings)).toMatchObject({
      status: 429,
      code: "checks_busy",
      retryAfterMs: 2000,
      param: null,
      message: expect.stringMatching(/server was busy.*waited 6\.5 s for a worker.*10 s.*PRESEND_TIMEOUT_MS.*try again/i),
    });
  });

  it("having had most of its time: a 422 on draft.html saying the draft is too heavy", () => {
    expect(toAppError(new WorkerPoolError("timeout", "stopped", 200), settings)).toMatchObject({
      status: 422,
      code: "checks_timeout",
      param: "draft.html",
      message: expect.stringMatching(/longer than 10 s \(PRESEND_TIMEOUT_MS\).*too heavy.*Shorten the html/),
    });
  });

  it("never started (no worker free in time): a 429 saying nothing is wrong with the draft", () => {
    expect(toAppError(new WorkerPoolError("expired", "not started", 10_000), settings)).toMatchObject({
      status: 429,
      code: "checks_busy",
      message: expect.stringMatching(/server was busy.*not checked.*Nothing is wrong with it; try again/),
    });
  });
});

describe("the number of check workers when PRESEND_WORKERS is unset", () => {
  it("is half the CPUs, at least 1 and at most 4, however large the machine", () => {
    expect([1, 2, 3, 6, 8, 16, 64, 256].map(defaultCheckWorkers)).toEqual([1, 1, 1, 3, 4, 4, 4, 4]);
  });
});
