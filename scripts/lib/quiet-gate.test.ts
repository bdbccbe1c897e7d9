import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openGateWhen, waitForGate } from "./quiet-gate";

describe("the quiet gate (the specs that measure latency wait for the rest of the run)", () => {
  const dirs: string[] = [];
  const gateFile = () => {
    const dir = mkdtempSync(join(tmpdir(), "quiet-gate-"));
    dirs.push(dir);
    return join(dir, "lane", "quiet");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("opens only once the work settles, a gate left by an earlier run included; a failed settle opens it too", async () => {
    const file = gateFile();
    openGateWhen(Promise.resolve(), file);
    await waitForGate(file, 1_000);
    // The next run's lane: the old file is gone until its own work settles.
    let settle!: () => void;
    openGateWhen(new Promise<void>((resolve) => (settle = resolve)), file);
    expect(existsSync(file)).toBe(false);
    const order: string[] = [];
    const waiting = waitForGate(file, 5_000).then(() => order.push("gate open"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    order.push("work settled");
    settle();
    await waiting;
    expect(order).toEqual(["work settled", "gate open"]);

    const failed = gateFile();
    openGateWhen(Promise.reject(new Error("the Postgres pass could not run")), failed);
    await waitForGate(failed, 1_000);
  });

  it("gives up after its time bound, naming the file", async () => {
    const file = gateFile();
    openGateWhen(new Promise<void>(() => {}), file);
    const started = Date.now();
    await expect(waitForGate(file, 300)).rejects.toThrow(/did not end within 0.3 s \(.*quiet was not written\)/);
    expect(Date.now() - started).toBeLessThan(2_000);
    writeFileSync(file, "");
    await waitForGate(file, 300);
  });
});
