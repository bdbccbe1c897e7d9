import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startAsIfOwnProcess } from "./as-if-own-process";

/** The setup every test file runs first (vitest.config.ts), run again as the next file's would be. */
const runSetupAgain = startAsIfOwnProcess;

const LEFT = Symbol.for("mail-dashboard.left-by-an-earlier-file");
const proto = http.Server.prototype as unknown as { emit: unknown } & Record<symbol, unknown>;
const untouchedEmit = proto.emit;

afterEach(() => {
  runSetupAgain();
});

describe("a test file sharing its process starts as if the process were its own", () => {
  it("without the variables an earlier file set, and with those it changed restored", async () => {
    const home = process.env.HOME;
    process.env.SET_BY_AN_EARLIER_FILE = "1";
    process.env.HOME = "/changed";
    runSetupAgain();
    expect(process.env.SET_BY_AN_EARLIER_FILE).toBeUndefined();
    expect(process.env.HOME).toBe(home);
  });

  it("without the dashboard's holders on globalThis, and with everything else kept", async () => {
    const other = Symbol.for("someone-else.holder");
    const holders = globalThis as unknown as Record<symbol, unknown>;
    holders[LEFT] = { pool: "an earlier file's" };
    holders[other] = "kept";
    runSetupAgain();
    expect(holders[LEFT]).toBeUndefined();
    expect(holders[other]).toBe("kept");
    delete holders[other];
  });

  it("with Node's HTTP server as it came: an earlier file's request hook answers nothing", async () => {
    proto.emit = function () {
      throw new Error("an earlier file's hook");
    };
    proto[LEFT] = true;
    runSetupAgain();
    expect(proto.emit).toBe(untouchedEmit);
    expect(proto[LEFT]).toBeUndefined();
    const server = http.createServer((_req, res) => res.end("plain"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("plain");
    } finally {
      server.close();
    }
  });
});
