import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DELETE as REVOKE } from "@/app/api/p/[project]/api-keys/[id]/route";
import { GET as LIST, POST as CREATE } from "./route";
import { listAudit, SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { apiKeys as serviceKeys } from "@/service/db/schema";
import { createTestService, type TestService } from "@/service/test/harness";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Keys through the dashboard against the bundled service over real HTTP: who may mint an
 * account-wide key, the default reach, and revoking — on the bundled service, which offers
 * it, and on one that answers 405 or 404 (the interface has no such operation).
 */
let svc: TestService;
let http: ServerType;
let serviceUrl: string;
let dispose: () => Promise<void>;
let admin: string;
let limited: string;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  svc = await createTestService();
  http = serve({ fetch: svc.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => http.once("listening", resolve));
  serviceUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  setTestEnv({ SERVICE_URL: serviceUrl, SERVICE_API_KEY: svc.accountKey });
  ({ dispose } = await useTestDb());
  const alpha = await registerProject({ externalId: "alpha" }, SYSTEM_ACTOR, { checkWithService: false });
  await registerProject({ externalId: "beta" }, SYSTEM_ACTOR, { checkWithService: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id);
  const { user } = await createUser(createUserRequest.parse({ email: "alpha-admin@example.com", role: "admin", password: PASSWORD, projectIds: [alpha.id] }), SYSTEM_ACTOR);
  limited = await sessionCookie(user.id);
});
afterAll(async () => {
  await dispose();
  await new Promise((resolve) => http.close(resolve));
  await svc.close();
});

const create = async (cookie: string, project: string, body: unknown) =>
  CREATE(await apiRequest(`/api/p/${project}/api-keys`, { method: "POST", cookie, body }), params({ project }));
const revoke = async (cookie: string, project: string, id: string) =>
  REVOKE(await apiRequest(`/api/p/${project}/api-keys/${id}`, { method: "DELETE", cookie }), params({ project, id }));
const list = async (cookie: string, project: string) => (await LIST(await apiRequest(`/api/p/${project}/api-keys`, { cookie }), params({ project }))).json();
/** What the service answers to the key itself: 200 works, 401 revoked or unknown, 403 out of its reach. */
const useKey = async (secret: string, project: string) =>
  (await fetch(`${serviceUrl}/v1/suppressions`, { headers: { Authorization: `Bearer ${secret}`, "X-Service-Product": project } })).status;
const serviceKeyCount = async () => (await svc.db.select().from(serviceKeys)).length;

describe("creating keys", () => {
  it("an admin limited to one project cannot mint an account-wide key; nothing reaches the service", async () => {
    const before = await serviceKeyCount();
    const res = await create(limited, "alpha", { name: "escape", reach: "account", scopes: ["full_access"] });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({ code: "forbidden", param: "reach", message: expect.stringMatching(/every project/) });
    expect(await serviceKeyCount()).toBe(before);
    const audit = await listAudit(auditQuery.parse({ q: "escape" }));
    expect(audit.data).toEqual([]);
  });

  it("a key made on a project's screen is tied to that project unless asked otherwise", async () => {
    const res = await create(limited, "alpha", { name: "alpha app", scopes: ["full_access"] });
    expect(res.status).toBe(201);
    const key = await res.json();
    expect(key).toMatchObject({ project: "alpha", revokedAt: null });
    const [row] = await svc.db.select().from(serviceKeys).where(eq(serviceKeys.id, key.id));
    expect(row.projectId).toBe(svc.alpha.id);
    expect(await useKey(key.secret, "alpha")).toBe(200);
    expect(await useKey(key.secret, "beta")).toBe(403);
  });

  it("the limited admin cannot reach another project's keys at all", async () => {
    const res = await create(limited, "beta", { name: "beta app", scopes: ["emails:send"] });
    expect(res.status).toBe(404);
  });

  it("an admin with every project may mint an account-wide key", async () => {
    const res = await create(admin, "alpha", { name: "wide", reach: "account", scopes: ["emails:read"] });
    expect(res.status).toBe(201);
    const key = await res.json();
    expect(key.project).toBeNull();
    expect(await useKey(key.secret, "beta")).toBe(403); // scope emails:read only: the key is valid, the scope is not
  });
});

describe("revoking keys", () => {
  it("revokes on the bundled service: the key stops working, the list says who and when, a second try is refused", async () => {
    const key = await (await create(admin, "alpha", { name: "to revoke", scopes: ["suppressions:read"] })).json();
    expect(await useKey(key.secret, "alpha")).toBe(200);
    const res = await revoke(admin, "alpha", key.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: key.id, revokedAt: expect.any(String), revokedByEmail: "admin@example.com" });
    expect(await useKey(key.secret, "alpha")).toBe(401);
    const listed = await list(admin, "alpha");
    expect(listed.revoke).toBe("supported");
    expect(listed.data.find((k: { id: string }) => k.id === key.id)).toMatchObject({ revokedByEmail: "admin@example.com" });
    const again = await revoke(admin, "alpha", key.id);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("already_revoked");
    const audit = await listAudit(auditQuery.parse({ action: "api_key.revoke", outcome: "success" }));
    expect(audit.data[0]).toMatchObject({ actorEmail: "admin@example.com", project: "alpha", target: "to revoke" });
  });

  it("an admin limited to some projects may revoke its project's keys but not an account-wide one", async () => {
    const wide = await (await create(admin, "alpha", { name: "wide to keep", reach: "account", scopes: ["suppressions:read"] })).json();
    const refused = await revoke(limited, "alpha", wide.id);
    expect(refused.status).toBe(403);
    expect(await useKey(wide.secret, "alpha")).toBe(200);
    const own = await (await create(limited, "alpha", { name: "own", scopes: ["suppressions:read"] })).json();
    expect((await revoke(limited, "alpha", own.id)).status).toBe(200);
  });

  it("answers 404 for a key not made here, or made for another project", async () => {
    expect((await revoke(admin, "alpha", "key_unknown")).status).toBe(404);
    const betaKey = await (await create(admin, "beta", { name: "beta only", scopes: ["suppressions:read"] })).json();
    const res = await revoke(admin, "alpha", betaKey.id);
    expect(res.status).toBe(404);
    expect(await useKey(betaKey.secret, "beta")).toBe(200);
  });

  for (const status of [405, 404]) {
    it(`on a service that answers ${status} (no such operation), says to revoke at the provider and keeps working`, async () => {
      const front: TestServer = await startHttpServer(async (req, res) => {
        if (req.method === "DELETE" && req.url.startsWith("/v1/api-keys/")) {
          res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "Not Found" }));
          return;
        }
        const answer = await fetch(`${serviceUrl}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.body || undefined });
        res.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "application/json" }).end(await answer.text());
      });
      setTestEnv({ SERVICE_URL: front.url, SERVICE_API_KEY: svc.accountKey });
      try {
        const key = await (await create(admin, "alpha", { name: `kept ${status}`, scopes: ["suppressions:read"] })).json();
        expect((await list(admin, "alpha")).revoke).toBe("unknown");
        const res = await revoke(admin, "alpha", key.id);
        expect(res.status).toBe(409);
        expect((await res.json()).error).toMatchObject({ code: "revoke_unsupported", message: expect.stringMatching(/provider's own console/) });
        expect(await useKey(key.secret, "alpha")).toBe(200);
        const listed = await list(admin, "alpha");
        expect(listed.revoke).toBe("unsupported");
        expect(listed.data.find((k: { id: string }) => k.id === key.id).revokedAt).toBeNull();
      } finally {
        setTestEnv({ SERVICE_URL: serviceUrl, SERVICE_API_KEY: svc.accountKey });
        await front.close();
      }
    });
  }
});
