import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { db } from "@/lib/server/db";
import { webauthnCredentials } from "@/lib/server/db/schema/passkeys";
import { countPasskeys } from "@/lib/server/auth/passkeys";
import { replaceRecoveryCodes, recoveryCodesLeft } from "@/lib/server/auth/recovery-codes";
import { beginTotp, totpEnabled, useTotpCode } from "@/lib/server/auth/totp";
import { hasSecondFactor } from "@/lib/server/auth/second-factor";
import { createUser } from "@/lib/server/users";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { GET as STATUS } from "@/app/api/account/two-factor/route";
import { Secret, TOTP } from "otpauth";
import { DELETE as RESET } from "./route";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

/** An admin resets a user's second factor: the factor and codes go, the user's sessions end, audited. */
const PASSWORD = "correct horse battery";
let dispose: () => Promise<void>;
let admin: string;
let support: string;
let userId: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "a@example.com", role: "admin", password: PASSWORD, allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "s@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id);
  userId = (await createUser(createUserRequest.parse({ email: "lost-phone@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
  const secret = await beginTotp(userId);
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  expect(await useTotpCode(userId, code, { enrolling: true })).toBe(true);
  await replaceRecoveryCodes(userId);
  await (await db()).insert(webauthnCredentials).values({ userId, credentialId: "cred-lost-phone", publicKey: "AA", name: "Phone" });
});
afterAll(() => dispose());

const reset = async (cookie: string, id = userId) => RESET(await apiRequest(`/api/admin/users/${id}/two-factor`, { method: "DELETE", cookie }), params({ id }));

describe("DELETE /api/admin/users/[id]/two-factor", () => {
  it("is for admins only", async () => {
    expect((await reset(support)).status).toBe(403);
    expect(await hasSecondFactor(userId)).toBe(true);
  });

  it("removes the app and the codes, ends the user's sessions and records who did it", async () => {
    const userSession = await sessionCookie(userId);
    expect((await STATUS(await apiRequest("/api/account/two-factor", { cookie: userSession }), params({}))).status).toBe(200);
    const res = await reset(admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ended: 1 });
    expect(await totpEnabled(userId)).toBe(false);
    expect(await recoveryCodesLeft(userId)).toBe(0);
    expect(await countPasskeys(userId)).toBe(0);
    expect(await hasSecondFactor(userId)).toBe(false);
    expect((await STATUS(await apiRequest("/api/account/two-factor", { cookie: userSession }), params({}))).status).toBe(401);
    const { data } = await listAudit(auditQuery.parse({ action: "user.two_factor_reset" }));
    expect(data[0]).toMatchObject({ actorEmail: "a@example.com", target: "lost-phone@example.com", outcome: "success", detail: { hadAuthenticatorApp: true, passkeysRemoved: 1, sessionsEnded: 1 } });
  });

  it("a user that is not there is a 404", async () => {
    expect((await reset(admin, "00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });
});
