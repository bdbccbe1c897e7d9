import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { createUser, setUserProjects } from "@/lib/server/users";
import { GET as HEALTH } from "../../../../health/route";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";
import { SERVICE_MESSAGE } from "@/lib/test/service-message";

let dispose: () => Promise<void>;
let service: TestServer;
let support: string;
let limited: string;

// A field the interface does not name yet: passed through.
const MESSAGE = { ...SERVICE_MESSAGE, somethingNew: true };

beforeAll(async () => {
  service = await startHttpServer((req, res) => {
    if (req.url === "/v1/emails/msg_1" && req.headers["x-service-product"] === "demo") return json(res, 200, MESSAGE);
    if (req.url.startsWith("/v1/templates")) return json(res, 200, { data: [], nextCursor: null });
    return json(res, 404, { error: { message: "Message not found", code: "not_found" } });
  });
  setTestEnv({ SERVICE_URL: service.url, SERVICE_API_KEY: "sk_account_wide_do_not_leak" });
  ({ dispose } = await useTestDb());
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  const other = await registerProject({ externalId: "other" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  const { user } = await createUser(createUserRequest.parse({ email: "l@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR);
  await setUserProjects(user.id, { allProjects: false, projectIds: [other.id] }, SYSTEM_ACTOR);
  limited = await sessionCookie(user.id);
});
afterAll(async () => {
  await dispose();
  await service.close();
});

describe("GET /api/p/[project]/messages/[id]", () => {
  it("retrieves the message through the service with the project of the URL", async () => {
    const res = await GET(await apiRequest("/api/p/demo/messages/msg_1", { cookie: support }), params({ project: "demo", id: "msg_1" }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id: "msg_1", status: "delivered", events: [{ type: "queued", data: {} }, { type: "delivery" }] });
    const call = service.requests.at(-1)!;
    expect(call.headers["x-service-product"]).toBe("demo");
    expect(call.headers.authorization).toBe("Bearer sk_account_wide_do_not_leak");
    expect(JSON.stringify(body)).not.toContain("sk_account_wide_do_not_leak");
  });

  it("ignores a project header sent by the browser", async () => {
    await GET(
      await apiRequest("/api/p/demo/messages/msg_1", { cookie: support, headers: { "x-service-product": "other" } }),
      params({ project: "demo", id: "msg_1" }),
    );
    expect(service.requests.at(-1)!.headers["x-service-product"]).toBe("demo");
  });

  it("passes the service's 404 on with its message", async () => {
    const res = await GET(await apiRequest("/api/p/demo/messages/nope", { cookie: support }), params({ project: "demo", id: "nope" }));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({ message: "Message not found", code: "not_found" });
  });

  it("answers 404 for a project the user may not open, without calling the service", async () => {
    const before = service.requests.length;
    const res = await GET(await apiRequest("/api/p/demo/messages/msg_1", { cookie: limited }), params({ project: "demo", id: "msg_1" }));
    expect(res.status).toBe(404);
    expect(service.requests.length).toBe(before);
  });

  it("401 when signed out", async () => {
    const res = await GET(await apiRequest("/api/p/demo/messages/msg_1"), params({ project: "demo", id: "msg_1" }));
    expect(res.status).toBe(401);
  });
});

describe("GET /api/health", () => {
  it("needs no session and reveals only the service state", async () => {
    const res = await HEALTH(await apiRequest("/api/health"), params({}));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ service: { state: "up", latencyMs: expect.any(Number), problem: null, reason: null } });
  });
});
