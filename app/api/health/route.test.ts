import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { resetServiceHealth } from "@/lib/server/service/health";
import { apiRequest, json, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { GET } from "./route";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * A service that is not ours: it refuses keys with a problem+json 401, knows only the
 * project "acme", and says so in its own words.
 */
let foreign: TestServer;
let dispose: () => Promise<void>;
let cookie: string;
beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  cookie = await sessionCookie((await createUser(createUserRequest.parse({ email: "sup@example.com", role: "support", password: "correct horse battery" }), SYSTEM_ACTOR)).user.id);
  foreign = await startHttpServer((req, res) => {
    if (req.headers.authorization !== "Bearer good-key") {
      res.writeHead(401, { "Content-Type": "application/problem+json" }).end(JSON.stringify({ title: "Unauthorized", detail: "Invalid token" }));
    } else if (req.headers["x-service-product"] !== "acme") {
      json(res, 404, { errors: [{ detail: `Sender ${req.headers["x-service-product"]} not found` }] });
    } else {
      json(res, 200, { data: [] });
    }
  });
});
afterAll(async () => {
  await foreign.close();
  await dispose();
});
afterEach(() => resetServiceHealth());

async function health(env: Record<string, string>, signedIn = true) {
  setTestEnv({ SERVICE_URL: foreign.url, ...env });
  resetServiceHealth();
  const res = await GET(await apiRequest("/api/health", signedIn ? { cookie } : {}), params({}));
  // The dashboard itself is up: scripts wait on this answer whatever the service says.
  expect(res.status).toBe(200);
  return (await res.json()).service;
}

describe("/api/health against a foreign service", () => {
  it("is up when the key and every project are accepted", async () => {
    expect(await health({ SERVICE_API_KEY: "good-key", SERVICE_PROJECTS: "acme" })).toMatchObject({ state: "up", problem: null, reason: null });
  });

  it("says the key is refused, with the service's words", async () => {
    const body = await health({ SERVICE_API_KEY: "revoked", SERVICE_PROJECTS: "acme" });
    expect(body).toMatchObject({ state: "down", problem: "key_refused" });
    expect(body.reason).toContain("Invalid token");
  });

  it("tells someone signed out the kind of problem, not the service's address or words", async () => {
    const body = await health({ SERVICE_API_KEY: "revoked", SERVICE_PROJECTS: "acme" }, false);
    expect(body).toEqual({ state: "down", latencyMs: expect.any(Number), problem: "key_refused", reason: null });
  });

  it("names the project the service does not know", async () => {
    const body = await health({ SERVICE_API_KEY: "good-key", SERVICE_PROJECTS: "acme,ghost" });
    expect(body).toMatchObject({ state: "up", problem: "unknown_project" });
    expect(body.reason).toContain("project ghost: Sender ghost not found");
    expect(body.reason).not.toContain("acme:");
  });

  it("says when the service cannot be reached", async () => {
    setTestEnv({ SERVICE_URL: "http://127.0.0.1:1", SERVICE_API_KEY: "good-key" });
    resetServiceHealth();
    const res = await GET(await apiRequest("/api/health", { cookie }), params({}));
    expect(res.status).toBe(200);
    const body = (await res.json()).service;
    expect(body).toMatchObject({ state: "down", problem: "unreachable", latencyMs: null });
    expect(body.reason).toContain("http://127.0.0.1:1");
  });
});
