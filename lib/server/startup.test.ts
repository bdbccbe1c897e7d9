import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, withDbLock } from "./db";
import { eventStreams } from "./db/schema/messages";
import { connectEventStream, connectEventStreamsInBackground } from "./event-stream/connect";
import { getProject, listAllProjects } from "./projects";
import { registerServiceProjects, startOrExit } from "./startup";
import { json, type TestServer } from "./test-helpers";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";

/** Start-up against a stand-in for a local service that counts the webhooks it is asked to create and delete. */
let service: TestServer;
let close: () => Promise<void>;
let created = 0;
const live = new Set<string>();

beforeAll(async () => {
  // 127.0.0.1: a local service, so start-up connects the stream by itself.
  ({ service, close } = await startDashboardOnFake(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/v1/templates") return json(res, 200, { data: [], nextCursor: null });
    if (req.method === "POST" && url.pathname === "/v1/webhooks") {
      // Slow enough that two connections racing would both get this far.
      await new Promise((r) => setTimeout(r, 30));
      const id = `wh_${++created}`;
      live.add(id);
      return json(res, 201, { id, url: JSON.parse(req.body).url, enabled: true, eventTypes: [], signingSecret: `whsec_${Buffer.from(id).toString("base64")}`, createdAt: new Date().toISOString() });
    }
    if (req.method === "DELETE" && url.pathname.startsWith("/v1/webhooks/")) {
      live.delete(url.pathname.split("/").pop()!);
      res.writeHead(204).end();
      return;
    }
    json(res, 404, { error: { message: "not found", code: "not_found" } });
  }, { SERVICE_TIMEOUT_MS: "3000" }));
});
afterAll(() => close());

describe("the event stream at start", () => {
  it("is connected once per project: one webhook created, none created and deleted again", async () => {
    await registerServiceProjects(["demo", "shop"], { info: () => {}, warn: () => {}, error: () => {} } as unknown as Console);
    const demo = (await getProject("demo"))!;
    // The start's connection, and anything else asking at the same moment (a registration, an
    // admin's button, another instance's start), make one webhook between them.
    await Promise.all([connectEventStreamsInBackground(listAllProjects, 1, 0), connectEventStream(demo), connectEventStream(demo)]);
    expect(created).toBe(2);
    expect(live.size).toBe(2);
    expect(service.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    expect(await (await db()).select().from(eventStreams)).toHaveLength(2);
  });
});

describe("a start that fails", () => {
  it("ends the process with the reason instead of serving errors", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((m: string) => void errors.push(m));
    const exit = vi.fn();
    try {
      await startOrExit(async () => {
        throw new Error("connect ECONNREFUSED 10.0.0.5:5432", { cause: new Error("the database did not answer") });
      }, exit);
    } finally {
      spy.mockRestore();
    }
    expect(exit).toHaveBeenCalledWith(1);
    expect(errors.join("\n")).toMatch(/could not start: connect ECONNREFUSED 10\.0\.0\.5:5432 \(the database did not answer\)/);
  });

  it("a start that succeeds does not exit", async () => {
    const exit = vi.fn();
    await startOrExit(async () => {}, exit);
    expect(exit).not.toHaveBeenCalled();
  });
});

describe("database locks", () => {
  it("refuse a second holder that will not wait, and make one that waits go after the first", async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = withDbLock("test:lock", async () => {
      order.push("first in");
      await new Promise<void>((r) => (release = r));
      order.push("first out");
      return 1;
    });
    while (!order.length) await new Promise((r) => setTimeout(r, 5));
    expect(await withDbLock("test:lock", async () => 2, { wait: false })).toEqual({ acquired: false });
    // Another name is independent.
    expect(await withDbLock("test:other", async () => 3, { wait: false })).toEqual({ acquired: true, value: 3 });
    const second = withDbLock("test:lock", async () => {
      order.push("second in");
      return 4;
    });
    release();
    expect(await Promise.all([first, second])).toEqual([{ acquired: true, value: 1 }, { acquired: true, value: 4 }]);
    expect(order).toEqual(["first in", "first out", "second in"]);
  });
});
