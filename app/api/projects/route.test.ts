import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { apiRequest, json, params, sessionCookie, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { DELETE, PATCH } from "./[id]/route";
import { GET, POST } from "./route";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { createUserRequest } from "@/lib/schemas/users";

let close: () => Promise<void>;
let service: TestServer;
let admin: string;
let support: string;

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((req, res) =>
    req.headers["x-service-product"] === "demo" ? json(res, 200, { data: [], nextCursor: null }) : json(res, 404, { message: "unknown project" }),
  ));
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "sup@example.com", role: "support", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => close());

describe("/api/projects", () => {
  it("401 with the error shape, no-store and a correlation id when signed out", async () => {
    const res = await GET(await apiRequest("/api/projects"), params({}));
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "unauthorized", param: null, correlationId: res.headers.get("x-correlation-id") });
  });

  it("refuses a cross-origin POST before anything else", async () => {
    const res = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, origin: "https://evil.example", body: { externalId: "demo" } }), params({}));
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("cross_origin");
    expect(service.requests).toHaveLength(0);
  });

  it("refuses a POST with neither Origin nor Sec-Fetch-Site, accepts Sec-Fetch-Site: same-origin", async () => {
    const bare = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, origin: null, body: {} }), params({}));
    expect(bare.status).toBe(403);
    const fetchMeta = await POST(
      await apiRequest("/api/projects", { method: "POST", cookie: admin, origin: null, headers: { "sec-fetch-site": "same-origin" }, body: {} }),
      params({}),
    );
    expect(fetchMeta.status).toBe(400);
  });

  it("names the field of a validation error", async () => {
    const res = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, body: { externalId: "bad id!" } }), params({}));
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: "validation_error", param: "externalId" });
    expect(error.message).toMatch(/^externalId: /);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const res = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, body: "{nope" }), params({}));
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_json");
  });

  it("403 for a role without projects:manage", async () => {
    const res = await POST(await apiRequest("/api/projects", { method: "POST", cookie: support, body: { externalId: "demo" } }), params({}));
    expect(res.status).toBe(403);
  });

  it("registers, lists, renames and removes", async () => {
    const created = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, body: { externalId: "demo", name: "Demo" } }), params({}));
    expect(created.status).toBe(201);
    const project = await created.json();
    const unknown = await POST(await apiRequest("/api/projects", { method: "POST", cookie: admin, body: { externalId: "ghost" } }), params({}));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.param).toBe("externalId");

    const list = await GET(await apiRequest("/api/projects", { cookie: support }), params({}));
    expect((await list.json()).data.map((p: { externalId: string }) => p.externalId)).toEqual(["demo"]);

    const renamed = await PATCH(await apiRequest(`/api/projects/${project.id}`, { method: "PATCH", cookie: admin, body: { name: "Demo shop" } }), params({ id: project.id }));
    expect((await renamed.json()).name).toBe("Demo shop");
    const removed = await DELETE(await apiRequest(`/api/projects/${project.id}`, { method: "DELETE", cookie: admin }), params({ id: project.id }));
    expect(removed.status).toBe(204);
    expect(removed.headers.get("cache-control")).toBe("no-store");
  });
});
