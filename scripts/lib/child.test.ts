import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startChild } from "./child";

// A parent that starts a grandchild in its own group, as npm or Next do with their workers.
const PARENT = `
const { spawn } = require("node:child_process");
const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
console.log("grandchild " + grandchild.pid);
console.log("ready on http://127.0.0.1:1");
setInterval(() => {}, 1000);
`;

/** Running, and not a zombie waiting for a container's init to reap it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("startChild", () => {
  it("finds the ready line and stops the whole process group", async () => {
    const child = startChild({ name: "t", command: process.execPath, args: ["-e", PARENT], env: process.env });
    const [, url] = await child.waitForLine(/ready on (\S+)/, 10_000);
    expect(url).toBe("http://127.0.0.1:1");
    const [, pid] = await child.waitForLine(/grandchild (\d+)/, 1_000);
    expect(alive(Number(pid))).toBe(true);
    await child.stop();
    expect(child.hasExited()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(Number(pid))).toBe(false);
  });

  it("rejects with the output when the program ends before it is ready", async () => {
    const child = startChild({ name: "t", command: process.execPath, args: ["-e", "console.log('bad config'); process.exit(3)"], env: process.env });
    await expect(child.waitForLine(/ready/, 10_000)).rejects.toThrow(/exited \(code 3\)[\s\S]*bad config/);
  });
});
