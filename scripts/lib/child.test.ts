import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startChild, stopInStartOrder } from "./child";

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

// A server that, told to stop, ends once its traffic has: the dashboard as measured, which a
// stack stopping it under the demo's month of deliveries saw end only at the SIGKILL.
const RECEIVER = `
let last = Date.now();
const server = require("node:http").createServer((req, res) => { last = Date.now(); req.resume(); req.on("end", () => res.end("ok")); });
server.listen(0, "127.0.0.1", () => console.log("ready on http://127.0.0.1:" + server.address().port));
process.on("SIGTERM", () => setInterval(() => { if (Date.now() - last > 300) process.exit(0); }, 50));
`;
// A sender that posts to it without pause over one kept-alive connection, as the service's webhook deliveries do.
const SENDER = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const post = () => { const req = http.request(process.argv[1], { method: "POST", agent }, (res) => { res.resume(); res.on("end", () => { console.log("delivered"); post(); }); }); req.on("error", () => setTimeout(post, 10)); req.end("{}"); };
post();
`;

describe("stopInStartOrder", () => {
  async function pair() {
    const receiver = startChild({ name: "receiver", command: process.execPath, args: ["-e", RECEIVER], env: process.env });
    const [, url] = await receiver.waitForLine(/ready on (\S+)/, 10_000);
    const sender = startChild({ name: "sender", command: process.execPath, args: ["-e", SENDER, url], env: process.env });
    await sender.waitForLine(/delivered/, 10_000);
    return { receiver, sender };
  }

  it("stops the sender first, so the server it keeps busy ends on SIGTERM, not at the grace period's SIGKILL", async () => {
    const { receiver, sender } = await pair();
    expect(await stopInStartOrder([sender, receiver], 5_000)).toEqual({ sender: "exited", receiver: "exited" });
  });

  it("(why) a server stopped while the sender still posts holds on until it is killed", async () => {
    const { receiver, sender } = await pair();
    expect(await stopInStartOrder([receiver, sender], 1_000)).toEqual({ receiver: "killed", sender: "exited" });
  });
});
