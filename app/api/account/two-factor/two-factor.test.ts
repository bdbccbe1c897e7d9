import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { recoveryCodes, totpFactors } from "@/lib/server/db/schema/two-factor";
import { createUser } from "@/lib/server/users";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { POST as RECONFIRM } from "@/app/api/auth/reconfirm/route";
import { GET as STATUS } from "./route";
import { DELETE as DISABLE, POST as START } from "./totp/route";
import { POST as CONFIRM } from "./totp/confirm/route";
import { POST as REGENERATE } from "./recovery-codes/route";
import { createUserRequest } from "@/lib/schemas/users";

/** The Account screen's routes: enrolment, the one-time answers, the step-up with a code. */
const PASSWORD = "correct horse battery";
const MIN = 60_000;
let dispose: () => Promise<void>;
let userId: string;
let cookie: string;

beforeAll(async () => {
  setTestEnv({ REAUTH_MAX_AGE_S: "300", LOGIN_THROTTLE_MAX: "5" });
  ({ dispose } = await useTestDb());
  userId = (await createUser(createUserRequest.parse({ email: "t@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
  cookie = await sessionCookie(userId);
});
afterAll(() => dispose());

const post = async (handler: typeof START, path: string, body?: unknown, c = cookie, method = "POST") => handler(await apiRequest(path, { method, cookie: c, body }), params({}));
const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

describe("setting up an authenticator app", () => {
  let secret: string;

  it("starts with a secret and a QR path, answered no-store, sealed at rest", async () => {
    const res = await post(START, "/api/account/two-factor/totp");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(body.qrPath).toMatch(/^M\d+ \d+h1v1h-1z/);
    const [row] = await (await db()).select().from(totpFactors).where(eq(totpFactors.userId, userId));
    expect(row.secretSealed).not.toContain(secret);
    expect(row.enabledAt).toBeNull();
    expect(await (await STATUS(await apiRequest("/api/account/two-factor", { cookie }), params({}))).json()).toEqual({ available: true, required: false, totp: false, recoveryCodesLeft: 0, passkeys: [] });
  });

  it("refuses a wrong code naming the field, then turns on with a right one and answers ten recovery codes once", async () => {
    const wrong = await post(CONFIRM, "/api/account/two-factor/totp/confirm", { code: "000000" === codeAt(secret, Date.now()) ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.param).toBe("code");
    const ok = await post(CONFIRM, "/api/account/two-factor/totp/confirm", { code: codeAt(secret, Date.now()) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toContain("no-store");
    const { codes } = await ok.json();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const stored = await (await db()).select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes).not.toContain(row.codeHash);
    expect(await (await STATUS(await apiRequest("/api/account/two-factor", { cookie }), params({}))).json()).toEqual({ available: true, required: false, totp: true, recoveryCodesLeft: 10, passkeys: [] });
  });

  it("will not start over while on: an open session cannot swap the secret", async () => {
    expect((await post(START, "/api/account/two-factor/totp")).status).toBe(409);
  });

  it("the step-up takes a code instead of the password, once per code", async () => {
    const stale = await sessionCookie(userId, Date.now() - 10 * MIN);
    expect((await post(REGENERATE, "/api/account/two-factor/recovery-codes", undefined, stale)).status).toBe(403);
    // The code of the next step: the confirmation above used this one's.
    const code = codeAt(secret, Date.now() + 30_000);
    const ok = await post(RECONFIRM, "/api/auth/reconfirm", { code }, stale);
    expect(ok.status).toBe(200);
    const replay = await post(RECONFIRM, "/api/auth/reconfirm", { code }, stale);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error.param).toBe("code");
    const fresh = await post(REGENERATE, "/api/account/two-factor/recovery-codes", undefined, stale);
    expect(fresh.status).toBe(200);
    expect((await fresh.json()).codes).toHaveLength(10);
    expect((await post(RECONFIRM, "/api/auth/reconfirm", { password: PASSWORD, code })).status).toBe(400);
  });

  it("turns off with a recovery code; the codes go with it", async () => {
    const { codes } = await (await post(REGENERATE, "/api/account/two-factor/recovery-codes")).json();
    expect((await post(DISABLE, "/api/account/two-factor/totp", { code: "zzzzz-zzzzz" }, cookie, "DELETE")).status).toBe(400);
    const off = await post(DISABLE, "/api/account/two-factor/totp", { code: codes[0].toUpperCase() }, cookie, "DELETE");
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ available: true, required: false, totp: false, recoveryCodesLeft: 0, passkeys: [] });
    expect(await (await db()).select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId))).toEqual([]);
    // Without a factor a code is no step-up.
    expect((await post(RECONFIRM, "/api/auth/reconfirm", { code: codes[1] })).status).toBe(400);
  });
});

describe("starting enrolment", () => {
  it("is limited per user: the sixth start in a minute is a 429 with the wait, another user is not held", async () => {
    const other = (await createUser(createUserRequest.parse({ email: "churn@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    const churn = await sessionCookie(other);
    for (let i = 0; i < 5; i++) expect((await post(START, "/api/account/two-factor/totp", undefined, churn)).status).toBe(200);
    const refused = await post(START, "/api/account/two-factor/totp", undefined, churn);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe("enrolment_limit");
    const third = (await createUser(createUserRequest.parse({ email: "fresh@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    expect((await post(START, "/api/account/two-factor/totp", undefined, await sessionCookie(third))).status).toBe(200);
  });
});
