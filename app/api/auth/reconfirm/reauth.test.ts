import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { createUser } from "@/lib/server/users";
import { apiRequest, json, params, sessionCookie, setTestEnv, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { GET as LIST_KEYS, POST as CREATE_KEY } from "@/app/api/p/[project]/api-keys/route";
import { POST as CREATE_HOOK } from "@/app/api/p/[project]/webhooks/route";
import { POST as RECONFIRM } from "./route";
import { isRecent } from "@/lib/server/gate/reauth";
import { DUMMY_HASH, verifyPassword } from "@/lib/server/auth/password";
import { resetPasswordPool } from "@/lib/server/auth/password-pool";
import { createUserRequest } from "@/lib/schemas/users";

/** The re-confirmation rule, and that the key's secret leaves through the response only. */
const SECRET = "sk_live_THE_ONE_TIME_SECRET_1234567890";
const PASSWORD = "correct horse battery";
const MIN = 60_000;

let service: TestServer;
let dispose: () => Promise<void>;
let adminId: string;
let support: string;
let marketer: string;

beforeAll(async () => {
  service = await startHttpServer((req, res) => {
    if (req.url === "/v1/api-keys") return json(res, 201, { id: "key_1", name: JSON.parse(req.body).name, secret: SECRET });
    if (req.url === "/v1/webhooks") return json(res, 201, { id: "wh_1", url: "https://h.example/x", enabled: true, eventTypes: ["delivery"], signingSecret: "whsec_ONCE", createdAt: "2026-01-01T00:00:00Z" });
    json(res, 404, {});
  });
  setTestEnv({ SERVICE_URL: service.url, REAUTH_MAX_AGE_S: "300", LOGIN_THROTTLE_MAX: "3" });
  ({ dispose } = await useTestDb());
  await registerProject({ externalId: "p1", name: "P1" }, SYSTEM_ACTOR, { checkWithService: false });
  adminId = (await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id;
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(async () => {
  await dispose();
  await service.close();
});

const keyBody = { name: "Staging app", reach: "project", scopes: ["emails:send"] };
const createKey = async (cookie: string) => CREATE_KEY(await apiRequest("/api/p/p1/api-keys", { method: "POST", cookie, body: keyBody }), params({ project: "p1" }));

describe("isRecent", () => {
  const now = 1_000 * MIN;
  it("takes the later of sign-in and re-confirmation", () => {
    expect(isRecent(now - 5 * MIN, null, now, 10 * MIN)).toBe(true);
    expect(isRecent(now - 11 * MIN, null, now, 10 * MIN)).toBe(false);
    expect(isRecent(now - 60 * MIN, now - 2 * MIN, now, 10 * MIN)).toBe(true);
    expect(isRecent(null, null, now, 10 * MIN)).toBe(false);
  });
});

describe("creating keys and webhooks", () => {
  it("refuses support and marketer", async () => {
    expect((await createKey(support)).status).toBe(403);
    expect((await createKey(marketer)).status).toBe(403);
    const hook = await CREATE_HOOK(await apiRequest("/api/p/p1/webhooks", { method: "POST", cookie: support, body: { url: "https://h.example/x", eventTypes: ["delivery"] } }), params({ project: "p1" }));
    expect(hook.status).toBe(403);
  });

  it("asks an admin signed in longer than the limit to confirm the password, then creates", async () => {
    const stale = await sessionCookie(adminId, Date.now() - 10 * MIN);
    const refused = await createKey(stale);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("reauth_required");
    const hook = await CREATE_HOOK(await apiRequest("/api/p/p1/webhooks", { method: "POST", cookie: stale, body: { url: "https://h.example/x", eventTypes: ["delivery"] } }), params({ project: "p1" }));
    expect((await hook.json()).error.code).toBe("reauth_required");

    const wrong = await RECONFIRM(await apiRequest("/api/auth/reconfirm", { method: "POST", cookie: stale, body: { password: "nope" } }), params({}));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.param).toBe("password");
    expect((await createKey(stale)).status).toBe(403);

    const ok = await RECONFIRM(await apiRequest("/api/auth/reconfirm", { method: "POST", cookie: stale, body: { password: PASSWORD } }), params({}));
    expect(ok.status).toBe(200);
    const created = await createKey(stale);
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect((await created.json()).secret).toBe(SECRET);
  });

  it("throttles password guesses like sign-in", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "t@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR);
    const stale = await sessionCookie(user.id, Date.now() - 60 * MIN);
    const attempt = async (password: string) => RECONFIRM(await apiRequest("/api/auth/reconfirm", { method: "POST", cookie: stale, body: { password } }), params({}));
    for (let i = 0; i < 3; i++) expect((await attempt("wrong")).status).toBe(400);
    // Then growing delays (1 s, 2 s, 4 s…): guess on until a refusal has more than a second
    // left to run, so the right password sent next is surely inside it, however slow the machine.
    let refusal: Response | null = null;
    for (let i = 0; i < 12 && !refusal; i++) {
      const res = await attempt("wrong");
      expect([400, 429]).toContain(res.status);
      const wait = Number(res.headers.get("retry-after"));
      if (res.status === 429 && wait >= 2) refusal = res;
      else if (res.status === 429) await new Promise((r) => setTimeout(r, wait * 1000));
    }
    expect(refusal).not.toBeNull();
    expect((await refusal!.json()).error.message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/);
    expect((await attempt(PASSWORD)).status).toBe(429);
  });

  it("shares the process-wide bound on password checks with sign-in: a full pool is a 429 with Retry-After, nothing compared", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "busy@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR);
    const stale = await sessionCookie(user.id, Date.now() - 60 * MIN);
    setTestEnv({ SERVICE_URL: service.url, REAUTH_MAX_AGE_S: "300", LOGIN_THROTTLE_MAX: "3", PASSWORD_WORKERS: "1", PASSWORD_QUEUE: "1" });
    await resetPasswordPool();
    try {
      // One check running (its worker still starting) and one waiting: the pool is full.
      const fillers = [verifyPassword("guess", DUMMY_HASH), verifyPassword("guess", DUMMY_HASH)];
      const res = await RECONFIRM(await apiRequest("/api/auth/reconfirm", { method: "POST", cookie: stale, body: { password: PASSWORD } }), params({}));
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("2");
      expect((await res.json()).error).toMatchObject({ code: "sign_ins_busy", message: "Too many sign-ins at once. Try again in 2 seconds." });
      expect(await Promise.all(fillers)).toEqual([false, false]);
      // With the pool free again the same password confirms.
      expect((await RECONFIRM(await apiRequest("/api/auth/reconfirm", { method: "POST", cookie: stale, body: { password: PASSWORD } }), params({}))).status).toBe(200);
    } finally {
      setTestEnv({ SERVICE_URL: service.url, REAUTH_MAX_AGE_S: "300", LOGIN_THROTTLE_MAX: "3" });
      await resetPasswordPool();
    }
  });

  it("keeps no copy of the secret: the list, the database and the audit log never hold it", async () => {
    const fresh = await sessionCookie(adminId);
    const list = await LIST_KEYS(await apiRequest("/api/p/p1/api-keys", { cookie: fresh }), params({ project: "p1" }));
    const body = await list.json();
    expect(body.data[0]).toMatchObject({ id: "key_1", name: "Staging app", project: "p1", scopes: ["emails:send"], createdByEmail: "a@example.com" });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    const d = await db();
    const dump = await d.execute(sql`select (select coalesce(json_agg(k), '[]') from dashboard_api_keys k)::text || (select coalesce(json_agg(a), '[]') from audit_log a)::text as all`);
    const text = JSON.stringify(dump);
    expect(text).toContain("Staging app");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("whsec_ONCE");
  });
});
