import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { NextRequest } from "next/server";
import { listAudit, SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { webauthnChallenges, webauthnCredentials } from "@/lib/server/db/schema/passkeys";
import { createUser } from "@/lib/server/users";
import { apiRequest, params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { createUserRequest } from "@/lib/schemas/users";
import { PASSKEYS } from "@/lib/schemas/passkeys";
import { SoftAuthenticator } from "@/lib/test/soft-authenticator";
import { POST as RECONFIRM } from "@/app/api/auth/reconfirm/route";
import { POST as STEP_UP_OPTIONS } from "@/app/api/auth/reconfirm/passkey/route";
import { GET as STATUS } from "../route";
import { POST as OPTIONS } from "./options/route";
import { POST as ADD } from "./route";
import { DELETE as REMOVE, PATCH as RENAME } from "./[id]/route";

/** Passkeys on the Account screen: real WebAuthn verification against a software authenticator. */
const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost:3000";
const MIN = 60_000;
let dispose: () => Promise<void>;
let userId: string;
let cookie: string;

beforeAll(async () => {
  setTestEnv({ REAUTH_MAX_AGE_S: "300", LOGIN_THROTTLE_MAX: "50" });
  ({ dispose } = await useTestDb());
  userId = (await createUser(createUserRequest.parse({ email: "pk@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
  cookie = await sessionCookie(userId);
});
afterAll(() => dispose());

type Handler = (req: NextRequest, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
const call = async (handler: Handler, path: string, { body, c = cookie, method = "POST", id }: { body?: unknown; c?: string; method?: string; id?: string } = {}) =>
  handler(await apiRequest(path, { method, cookie: c, body }), params({ id: id ?? "" }));

async function addWith(auth: SoftAuthenticator, name?: string, c = cookie) {
  const options = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options", { c })).json();
  return call(ADD, "/api/account/two-factor/passkeys", { body: { name, response: auth.register(options) }, c });
}

const laptop = new SoftAuthenticator(ORIGIN, "localhost");
const phone = new SoftAuthenticator(ORIGIN, "localhost");

describe("adding passkeys", () => {
  it("verifies the authenticator's answer and stores it, named by the user or after the authenticator", async () => {
    const options = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options")).json();
    expect(options.rp).toEqual({ name: "Mail dashboard", id: "localhost" });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const first = await call(ADD, "/api/account/two-factor/passkeys", { body: { response: laptop.register(options) } });
    expect(first.status).toBe(200);
    expect((await first.json()).map((p: { name: string }) => p.name)).toEqual(["Passkey on this device"]);
    const second = await addWith(phone, "  My phone ");
    expect((await second.json()).map((p: { name: string }) => p.name)).toEqual(["Passkey on this device", "My phone"]);
    const status = await (await STATUS(await apiRequest("/api/account/two-factor", { cookie }), params({}))).json();
    expect(status.passkeys).toHaveLength(2);
    const { data } = await listAudit({ action: "account.passkey_add", q: "pk@example.com", limit: 10 });
    expect(data.map((e) => [e.outcome, (e.detail as { name?: string }).name])).toEqual([
      ["success", "My phone"],
      ["success", "Passkey on this device"],
    ]);
  });

  it("a challenge is good once, and only for the origin and RP ID of PUBLIC_URL", async () => {
    const other = new SoftAuthenticator(ORIGIN, "localhost");
    const options = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options")).json();
    const answer = other.register(options, { origin: "https://evil.example" });
    const refused = await call(ADD, "/api/account/two-factor/passkeys", { body: { response: answer } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.param).toBe("response");
    // The challenge went with the refused try: the right answer to it is refused too.
    expect((await call(ADD, "/api/account/two-factor/passkeys", { body: { response: other.register(options) } })).status).toBe(400);
    const again = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options")).json();
    expect((await call(ADD, "/api/account/two-factor/passkeys", { body: { response: other.register(again, { rpId: "evil.example" }) } })).status).toBe(400);
    const expired = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options")).json();
    await (await db()).update(webauthnChallenges).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(webauthnChallenges.userId, userId));
    expect((await call(ADD, "/api/account/two-factor/passkeys", { body: { response: other.register(expired) } })).status).toBe(400);
    expect(await (await db()).select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId))).toHaveLength(2);
  });

  it("bounds the body before verifying: an oversized attestation is a 400 naming the field", async () => {
    const options = await (await call(OPTIONS, "/api/account/two-factor/passkeys/options")).json();
    const answer = new SoftAuthenticator(ORIGIN, "localhost").register(options);
    answer.response.attestationObject = "A".repeat(PASSKEYS.attestationMaxLength + 1);
    const res = await call(ADD, "/api/account/two-factor/passkeys", { body: { response: answer } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("response.response.attestationObject");
  });

  it(`at most ${PASSKEYS.perUser} per user: the options are refused past that`, async () => {
    const many = (await createUser(createUserRequest.parse({ email: "many@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    await (await db())
      .insert(webauthnCredentials)
      .values(Array.from({ length: PASSKEYS.perUser }, (_, i) => ({ userId: many, credentialId: `cred-${i}`, publicKey: "AA", name: `key ${i}` })));
    const res = await call(OPTIONS, "/api/account/two-factor/passkeys/options", { c: await sessionCookie(many) });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("limit_reached");
  });
});

describe("renaming and removing", () => {
  it("renames one's own passkey; another user's is not found", async () => {
    const [first] = (await (await STATUS(await apiRequest("/api/account/two-factor", { cookie }), params({}))).json()).passkeys;
    const renamed = await call(RENAME, `/api/account/two-factor/passkeys/${first.id}`, { method: "PATCH", id: first.id, body: { name: "Work laptop" } });
    expect(renamed.status).toBe(200);
    expect((await renamed.json())[0].name).toBe("Work laptop");
    const stranger = (await createUser(createUserRequest.parse({ email: "stranger@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    const foreign = await call(RENAME, `/api/account/two-factor/passkeys/${first.id}`, { method: "PATCH", id: first.id, body: { name: "Mine" }, c: await sessionCookie(stranger) });
    expect(foreign.status).toBe(404);
    const long = await call(RENAME, `/api/account/two-factor/passkeys/${first.id}`, { method: "PATCH", id: first.id, body: { name: "x".repeat(PASSKEYS.nameMaxLength + 1) } });
    expect(long.status).toBe(400);
    expect((await long.json()).error.param).toBe("name");
  });

  it("removing asks for the step-up, which a passkey answers once", async () => {
    const [first] = (await (await STATUS(await apiRequest("/api/account/two-factor", { cookie }), params({}))).json()).passkeys;
    const stale = await sessionCookie(userId, Date.now() - 10 * MIN);
    const asked = await call(REMOVE, `/api/account/two-factor/passkeys/${first.id}`, { method: "DELETE", id: first.id, c: stale });
    expect(asked.status).toBe(403);
    expect((await asked.json()).error.code).toBe("reauth_required");
    const options = await (await call(STEP_UP_OPTIONS, "/api/auth/reconfirm/passkey", { c: stale })).json();
    expect(options.allowCredentials.map((c: { id: string }) => c.id).sort()).toEqual([laptop.id, phone.id].sort());
    const assertion = phone.assert(options);
    // A passkey of another site (another origin) is not a step-up here.
    expect((await call(RECONFIRM, "/api/auth/reconfirm", { body: { assertion: phone.assert(options, { origin: "https://evil.example" }) }, c: stale })).status).toBe(400);
    const again = await (await call(STEP_UP_OPTIONS, "/api/auth/reconfirm/passkey", { c: stale })).json();
    expect((await call(RECONFIRM, "/api/auth/reconfirm", { body: { assertion: phone.assert(again) }, c: stale })).status).toBe(200);
    const replay = await call(RECONFIRM, "/api/auth/reconfirm", { body: { assertion }, c: stale });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error.param).toBe("assertion");
    const removed = await call(REMOVE, `/api/account/two-factor/passkeys/${first.id}`, { method: "DELETE", id: first.id, c: stale });
    expect(removed.status).toBe(200);
    expect((await removed.json()).map((p: { name: string }) => p.name)).toEqual(["My phone"]);
    const { data } = await listAudit({ action: "account.passkey_remove", q: "pk@example.com", limit: 10 });
    expect(data[0]).toMatchObject({ outcome: "success", detail: { name: "Work laptop" } });
  });

  it("a user without passkeys gets no step-up challenge", async () => {
    const none = (await createUser(createUserRequest.parse({ email: "none@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR)).user.id;
    expect((await call(STEP_UP_OPTIONS, "/api/auth/reconfirm/passkey", { c: await sessionCookie(none) })).status).toBe(409);
  });
});
