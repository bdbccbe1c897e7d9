import { describe, expect, it } from "vitest";
import { chunk, chunkIdempotencyKey, retryChunkIdempotencyKey } from "./chunks";

describe("chunk", () => {
  it("splits in order into chunks of 100 by default, the last one shorter", () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    const chunks = chunk(rows);
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(rows);
    expect(chunks[2][0]).toBe(200);
  });

  it("handles exact multiples, empty input and other sizes", () => {
    expect(chunk(Array.from({ length: 200 }, (_, i) => i)).map((c) => c.length)).toEqual([100, 100]);
    expect(chunk([])).toEqual([]);
    expect(chunk(["a", "b", "c"], 2)).toEqual([["a", "b"], ["c"]]);
    expect(chunk(Array.from({ length: 10_000 }, (_, i) => i))).toHaveLength(100);
  });

  it("refuses a size that is not a whole number from 1", () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => chunk([1], size)).toThrow(RangeError);
  });
});

describe("chunkIdempotencyKey", () => {
  it("is the same for the same job and chunk, however often it is asked (a resumed job replays)", () => {
    expect(chunkIdempotencyKey("job_01H", 3)).toBe("batch-job_01H-chunk-3");
    expect(chunkIdempotencyKey("job_01H", 3)).toBe(chunkIdempotencyKey("job_01H", 3));
  });

  it("differs between chunks and between jobs", () => {
    const keys = new Set(["a", "b"].flatMap((job) => [0, 1, 2].map((i) => chunkIdempotencyKey(job, i))));
    expect(keys.size).toBe(6);
    // No collision when a job id ends in a digit-like suffix.
    expect(chunkIdempotencyKey("job-1", 23)).not.toBe(chunkIdempotencyKey("job-12", 3));
  });

  it("refuses ids and indexes that would make a bad header", () => {
    expect(() => chunkIdempotencyKey("", 0)).toThrow(TypeError);
    expect(() => chunkIdempotencyKey("job id", 0)).toThrow(TypeError);
    expect(() => chunkIdempotencyKey("x".repeat(121), 0)).toThrow(TypeError);
    expect(() => chunkIdempotencyKey("job", -1)).toThrow(RangeError);
    expect(() => chunkIdempotencyKey("job", 1.5)).toThrow(RangeError);
  });

  it("stays within the 255 characters the service accepts", async () => {
    const job = "j".repeat(120);
    expect(chunkIdempotencyKey(job, 99).length).toBeLessThanOrEqual(255);
    expect((await retryChunkIdempotencyKey(job, 99, [1, 2, 3])).length).toBeLessThanOrEqual(255);
  });
});

describe("retryChunkIdempotencyKey", () => {
  it("depends on the job, the round and the set of rows, not their order or repeats", async () => {
    const key = await retryChunkIdempotencyKey("job", 1, [7, 3, 120]);
    expect(key).toMatch(/^batch-job-retry-1-rows-[0-9a-f]{32}$/);
    expect(await retryChunkIdempotencyKey("job", 1, [120, 7, 3, 3])).toBe(key);
    expect(await retryChunkIdempotencyKey("job", 2, [7, 3, 120])).not.toBe(key);
    expect(await retryChunkIdempotencyKey("job", 1, [7, 3])).not.toBe(key);
    expect(await retryChunkIdempotencyKey("other", 1, [7, 3, 120])).not.toBe(key);
  });

  it("never equals a first-pass key, so a retry is not a replay of the original failures", async () => {
    const first = Array.from({ length: 5 }, (_, i) => chunkIdempotencyKey("job", i));
    expect(first).not.toContain(await retryChunkIdempotencyKey("job", 1, [2]));
  });

  it("refuses an empty chunk and a round below 1", async () => {
    await expect(retryChunkIdempotencyKey("job", 1, [])).rejects.toThrow(RangeError);
    await expect(retryChunkIdempotencyKey("job", 0, [2])).rejects.toThrow(RangeError);
  });
});
