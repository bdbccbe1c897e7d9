import type { Child } from "./child";

/**
 * Polls `url` until it answers 200. The dashboard migrates its database and registers
 * projects at start, so "listening" is not yet "ready"; health is.
 */
export async function waitForHealth(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.hasExited()) {
      throw new Error(`${child.name} exited before it was ready. Its last output:\n${child.tail()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} was not healthy within ${timeoutMs / 1000}s (${last}). Last output of ${child.name}:\n${child.tail()}`);
}
