import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "../audit";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser } from "../users";
import { createUserRequest } from "@/lib/schemas/users";
import { passkeyAssertion } from "@/lib/schemas/passkeys";
import { secondFactorRequest } from "@/lib/schemas/two-factor";
import { SoftAuthenticator } from "@/lib/test/soft-authenticator";
import { checkCredentials } from "./credentials";
import { registrationOptions, storePasskey, verifyRegistration } from "./passkeys";
import { checkSecondStep, passkeyChallengeFor } from "./second-step";
import { hasSecondFactor } from "./second-factor";

/** Sign-in's second step with a passkey: real WebAuthn verification, one throttle with passwords and codes. */
const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost:3000";
const MAX = 4;
let dispose: () => Promise<void>;

beforeAll(async () => {
  setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: "300" });
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

/** A user whose only second factor is a passkey held by `auth`. */
async function passkeyUser(email: string, auth = new SoftAuthenticator(ORIGIN, "localhost")) {
  const { user } = await createUser(createUserRequest.parse({ email, role: "support", password: PASSWORD }), SYSTEM_ACTOR);
  const key = await verifyRegistration(user.id, auth.register(await registrationOptions(user)));
  expect(key).not.toBeNull();
  await storePasskey(user.id, key!, "Laptop");
  return { id: user.id, auth };
}

async function ticketFor(email: string, address: string): Promise<string> {
  const step = await checkCredentials(email, PASSWORD, address);
  if (step.ok || step.reason !== "second_factor") throw new Error(`expected the second step, got ${JSON.stringify(step)}`);
  return step.ticket;
}

describe("signing in with a passkey", () => {
  it("a passkey alone makes the password step ask for a second factor, and its answer completes the sign-in once", async () => {
    const { id, auth } = await passkeyUser("pk@example.com");
    expect(await hasSecondFactor(id)).toBe(true);
    const ticket = await ticketFor("pk@example.com", "10.1.0.1");
    const options = await passkeyChallengeFor(ticket);
    expect(options?.allowCredentials?.map((c) => c.id)).toEqual([auth.id]);
    // The form carries the assertion as a JSON string; the schema bounds and parses it.
    const parsed = secondFactorRequest.parse({ ticket, assertion: JSON.stringify(auth.assert(options!)) });
    expect(await checkSecondStep(ticket, { assertion: parsed.assertion! }, "10.1.0.1")).toMatchObject({ ok: true, user: { id } });
    // The same answer again: its challenge is gone.
    expect(await checkSecondStep(await ticketFor("pk@example.com", "10.1.0.1"), { assertion: parsed.assertion! }, "10.1.0.1")).toEqual({ ok: false, reason: "invalid" });
    const { data } = await listAudit({ action: "auth.sign_in", q: "pk@example.com", limit: 10 });
    // The success names the passkey that answered.
    expect(data.map((e) => [e.outcome, (e.detail as { method: string }).method, (e.detail as { device?: string }).device])).toEqual([
      ["failure", "password+passkey", undefined],
      ["success", "password+passkey", "Laptop"],
    ]);
  });

  it("refuses another user's passkey, another origin's and an answer without a challenge, each counted like a wrong code", async () => {
    const { auth } = await passkeyUser("victim@example.com");
    const { auth: mallory } = await passkeyUser("mallory@example.com");
    const ticket = await ticketFor("victim@example.com", "10.1.1.1"); // 1
    const opts = await passkeyChallengeFor(ticket);
    // Mallory's own authenticator answering the victim's challenge (her key is not the victim's).
    expect(await checkSecondStep(ticket, { assertion: passkeyAssertion.parse(mallory.assert(opts!)) }, "10.1.1.1")).toEqual({ ok: false, reason: "invalid" }); // 2
    const opts2 = await passkeyChallengeFor(ticket);
    expect(await checkSecondStep(ticket, { assertion: passkeyAssertion.parse(auth.assert(opts2!, { origin: "https://evil.example" })) }, "10.1.1.1")).toEqual({ ok: false, reason: "invalid" }); // 3
    // No challenge outstanding (the last one was used up by the refusal).
    expect(await checkSecondStep(ticket, { assertion: passkeyAssertion.parse(auth.assert(opts2!)) }, "10.1.1.1")).toEqual({ ok: false, reason: "invalid" }); // 4
    const opts3 = await passkeyChallengeFor(ticket);
    expect(await checkSecondStep(ticket, { assertion: passkeyAssertion.parse(auth.assert(opts3!)) }, "10.1.1.1")).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("an oversized or malformed assertion is refused by the schema before any check", () => {
    expect(secondFactorRequest.safeParse({ ticket: "t", assertion: "x".repeat(20_000) }).success).toBe(false);
    expect(secondFactorRequest.safeParse({ ticket: "t", assertion: "{not json" }).success).toBe(false);
    expect(secondFactorRequest.safeParse({ ticket: "t", code: "123456", assertion: "{}" }).success).toBe(false);
  });

  it("no challenge for a ticket that no longer holds", async () => {
    await passkeyUser("gone@example.com");
    expect(await passkeyChallengeFor("a.b.c.d")).toBeNull();
  });
});
