import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { POST } from "./route";
import { POST as START_BATCH } from "../batches/route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

let close: () => Promise<void>;
let service: TestServer;
let support: string;
let marketer: string;
const sentKeys = new Map<string, string>();

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) => {
    if (req.url === "/v1/emails" && req.method === "POST") {
      // Same key, same answer: the service's idempotency as the interface describes it.
      const key = String(req.headers["idempotency-key"]);
      if (!sentKeys.has(key)) sentKeys.set(key, `msg_${sentKeys.size + 1}`);
      return json(res, 202, { id: sentKeys.get(key), status: "queued" });
    }
    return json(res, 404, { error: { message: "not found", code: "not_found" } });
  }));
  // Without the event stream, which these tests do not need: its connection runs in the background
  // after registration, and on Postgres its POST /v1/webhooks could land among the requests counted below.
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

const good = { from: { email: "hello@acme.test" }, to: [{ email: "ada@example.com" }], subject: "Hi", text: "Hello" };
const send = async (cookie: string, body: unknown, key: string | null = "key-0123456789") =>
  POST(await apiRequest("/api/p/demo/emails", { method: "POST", cookie, body, headers: key ? { "Idempotency-Key": key } : {} }), params({ project: "demo" }));

describe("POST /api/p/[project]/emails", () => {
  it.each([
    ["no recipient", { ...good, to: [] }, "to"],
    ["a malformed address", { ...good, to: [{ email: "ada" }] }, "to.0.email"],
    ["a past send time", { ...good, scheduledAt: "2020-01-01T00:00:00Z" }, "scheduledAt"],
    ["a header with a line break", { ...good, headers: { "X-A": "a\r\nBcc: x@example.com" } }, "headers.X-A"],
  ])("refuses %s, naming the field, before calling the service", async (_, body, param) => {
    const before = service.requests.length;
    const res = await send(marketer, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe(param);
    expect(service.requests.length).toBe(before);
  });

  it("needs an Idempotency-Key, and the same key sends once", async () => {
    expect((await send(marketer, good, null)).status).toBe(400);
    const a = await (await send(support, good, "intent-abcdefgh")).json();
    const b = await (await send(support, good, "intent-abcdefgh")).json();
    expect(a).toEqual({ id: "msg_1", status: "queued" });
    expect(b.id).toBe(a.id);
    expect(service.requests.at(-1)!.headers["idempotency-key"]).toBe("intent-abcdefgh");
  });
});

describe("POST /api/p/[project]/batches", () => {
  it("refuses support (batches:send) before reading anything", async () => {
    const res = await START_BATCH(await apiRequest("/api/p/demo/batches", { method: "POST", cookie: support, body: {} }), params({ project: "demo" }));
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  });
});
