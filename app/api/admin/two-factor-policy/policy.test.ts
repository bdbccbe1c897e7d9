import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { SYSTEM_ACTOR, listAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { users } from "@/lib/server/db/schema/core";
import { webauthnCredentials } from "@/lib/server/db/schema/passkeys";
import { useTestDb } from "@/lib/server/db/test-db";
import { createUser } from "@/lib/server/users";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { GET as PROJECTS } from "@/app/api/projects/route";
import { GET as STATUS } from "@/app/api/account/two-factor/route";
import { POST as START } from "@/app/api/account/two-factor/totp/route";
import { POST as CONFIRM } from "@/app/api/account/two-factor/totp/confirm/route";
import { GET, PUT } from "./route";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/** Roles that require a second factor: the guard holds every route but the user's own account until there is one. */
const PASSWORD = "correct horse battery";
let dispose: () => Promise<void>;
let admin: string;
let support: string;
let marketer: string;
let sso: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id);
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "m@example.com", role: "marketer", password: PASSWORD }), SYSTEM_ACTOR)).user.id);
  const ssoId = (await createUser(createUserRequest.parse({ email: "sso@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
  await (await db()).update(users).set({ passwordHash: null }).where(eq(users.id, ssoId));
  sso = await sessionCookie(ssoId);
});
afterAll(() => dispose());

const get = async (handler: typeof GET, path: string, cookie: string) => handler(await apiRequest(path, { cookie }), params({}));
const send = async (handler: typeof PUT, path: string, cookie: string, body?: unknown) => handler(await apiRequest(path, { method: path.endsWith("policy") ? "PUT" : "POST", cookie, body }), params({}));

describe("requiring a second factor per role", () => {
  it("only admins read and set it; a bad role is a 400 naming the field", async () => {
    expect((await get(GET, "/api/admin/two-factor-policy", support)).status).toBe(403);
    expect(await (await get(GET, "/api/admin/two-factor-policy", admin)).json()).toEqual({ requiredRoles: [] });
    const bad = await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: ["owner"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.param).toMatch(/^requiredRoles/);
    const set = await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: ["support", "support"] });
    expect(await set.json()).toEqual({ requiredRoles: ["support"] });
    const { data } = await listAudit(auditQuery.parse({ action: "settings.two_factor_policy" }));
    expect(data[0]).toMatchObject({ actorEmail: "a@example.com", detail: { requiredRoles: ["support"] } });
  });

  it("a support user without one is refused everything but their own account, until they set it up", async () => {
    const held = await get(PROJECTS, "/api/projects", support);
    expect(held.status).toBe(403);
    expect((await held.json()).error.code).toBe("second_factor_setup_required");
    expect((await get(PROJECTS, "/api/projects", marketer)).status).toBe(200);
    // Single sign-on users rely on their identity provider.
    expect((await get(PROJECTS, "/api/projects", sso)).status).toBe(200);

    expect(await (await get(STATUS, "/api/account/two-factor", support)).json()).toMatchObject({ required: true, totp: false });
    const { secret } = await (await send(START, "/api/account/two-factor/totp", support)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    expect((await send(CONFIRM, "/api/account/two-factor/totp/confirm", support, { code })).status).toBe(200);
    expect((await get(PROJECTS, "/api/projects", support)).status).toBe(200);
  });

  it("lifting the requirement frees the others at once", async () => {
    await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: ["marketer"] });
    expect((await get(PROJECTS, "/api/projects", marketer)).status).toBe(403);
    await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: [] });
    expect((await get(PROJECTS, "/api/projects", marketer)).status).toBe(200);
  });

  it("a passkey counts as the second factor", async () => {
    const viewerId = (await createUser(createUserRequest.parse({ email: "pk-marketer@example.com", role: "marketer", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    const viewer = await sessionCookie(viewerId);
    await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: ["marketer"] });
    expect((await get(PROJECTS, "/api/projects", viewer)).status).toBe(403);
    await (await db()).insert(webauthnCredentials).values({ userId: viewerId, credentialId: "cred-pk-marketer", publicKey: "AA", name: "Laptop" });
    expect((await get(PROJECTS, "/api/projects", viewer)).status).toBe(200);
    await send(PUT, "/api/admin/two-factor-policy", admin, { requiredRoles: [] });
  });
});
