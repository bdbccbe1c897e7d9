import { describe, expect, it } from "vitest";
import { createSlots } from "./slots";

describe("slots", () => {
  it("hands out at most `limit` at once, the next in order as each is released, each release counted once", async () => {
    const slots = createSlots(2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    const order: string[] = [];
    const c = slots.acquire().then((release) => (order.push("c"), release));
    const d = slots.acquire().then((release) => (order.push("d"), release));
    expect(slots.stats()).toEqual({ inUse: 2, waiting: 2, limit: 2 });
    a();
    a();
    (await c)();
    b();
    (await d)();
    expect(order).toEqual(["c", "d"]);
    expect(slots.stats()).toEqual({ inUse: 0, waiting: 0, limit: 2 });
  });

  it("gives up waiting when the signal aborts, leaving its place to the next", async () => {
    const slots = createSlots(1);
    const held = await slots.acquire();
    const gaveUp = slots.acquire(AbortSignal.timeout(50));
    const next = slots.acquire();
    await expect(gaveUp).rejects.toMatchObject({ name: "TimeoutError" });
    expect(slots.stats().waiting).toBe(1);
    held();
    (await next)();
    expect(slots.stats()).toEqual({ inUse: 0, waiting: 0, limit: 1 });
  });
});
