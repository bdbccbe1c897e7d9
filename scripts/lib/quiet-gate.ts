import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * A file that says "the rest of the run has ended": the harness writes it once other work of
 * the run has settled (`openGateWhen`), and the specs that measure latency wait for it before
 * their first test (`waitForGate`, in e2e/fixtures.ts). So their Playwright starts, and the
 * personas sign in, while that work is ending, and their tests still have the machine to
 * themselves.
 */
export function openGateWhen(settled: Promise<unknown>, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  const open = () => writeFileSync(file, "");
  settled.then(open, open);
}

/** Waits until `file` exists, looking every 100 ms, for at most `timeoutMs`. */
export async function waitForGate(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the rest of the run did not end within ${timeoutMs / 1000} s (${file} was not written)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
