import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "../audit";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser, updateUser } from "../users";
import { INVALID_CREDENTIALS, checkCredentials, throttledMessage } from "./credentials";
import { ADDRESS_FACTOR, takeAttempt, throttleKeys } from "./throttle";

let dispose: () => Promise<void>;
const PASSWORD = "correct horse battery";
const MAX = 3;

beforeAll(async () => {
  setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600" });
  ({ dispose } = await useTestDb());
  await createUser({ email: "ada@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
  const { user } = await createUser({ email: "off@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
  await updateUser(user.id, { active: false }, SYSTEM_ACTOR);
});
afterAll(() => dispose());

/** Each password check of a known account leaves one audit entry with its outcome. */
async function passwordChecks(email: string): Promise<{ checked: number; throttled: number }> {
  const { data } = await listAudit({ action: "auth.sign_in", q: email, limit: 100 });
  const reasons = data.filter((e) => e.target === email).map((e) => (e.detail as { reason?: string }).reason);
  return { checked: reasons.filter((r) => r !== "throttled").length, throttled: reasons.filter((r) => r === "throttled").length };
}

describe("checkCredentials", () => {
  it("accepts the right password, case-insensitively on the email, and records the sign-in", async () => {
    const result = await checkCredentials(" Ada@Example.com ", PASSWORD, "10.0.0.1");
    expect(result.ok).toBe(true);
    const { data } = await listAudit({ action: "auth.sign_in", outcome: "success" });
    expect(data[0]).toMatchObject({ actorEmail: "ada@example.com", detail: { method: "password", address: "10.0.0.1" } });
  });

  it("gives one answer for an unknown user, a wrong password and a disabled account", async () => {
    const answers = await Promise.all([
      checkCredentials("nobody@example.com", PASSWORD, "10.0.0.2"),
      checkCredentials("ada@example.com", "wrong password!", "10.0.0.3"),
      checkCredentials("off@example.com", PASSWORD, "10.0.0.4"),
    ]);
    expect(answers).toEqual([
      { ok: false, reason: "invalid" },
      { ok: false, reason: "invalid" },
      { ok: false, reason: "invalid" },
    ]);
    expect(INVALID_CREDENTIALS).toBe("Email or password is incorrect.");
  });

  it("throttles an account after LOGIN_THROTTLE_MAX failures, even with the right password, from any address", async () => {
    await createUser({ email: "lin@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
    for (let i = 0; i < MAX; i++) {
      expect(await checkCredentials("lin@example.com", "wrong", `10.1.0.${i}`)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await checkCredentials("lin@example.com", PASSWORD, "10.1.0.99")).toEqual({ ok: false, reason: "throttled", minutes: 10 });
    expect(throttledMessage(10)).toBe("Too many sign-in attempts. Try again in 10 minutes.");
    expect(throttledMessage(1)).toBe("Too many sign-in attempts. Try again in 1 minute.");
  });

  it("30 parallel guesses get at most LOGIN_THROTTLE_MAX password checks", async () => {
    await createUser({ email: "burst@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => checkCredentials("burst@example.com", `guess-${i}`, `10.5.${i}.1`)));
    expect(answers.filter((a) => !a.ok && a.reason === "invalid")).toHaveLength(MAX);
    expect(answers.filter((a) => !a.ok && a.reason === "throttled")).toHaveLength(30 - MAX);
    expect(await passwordChecks("burst@example.com")).toEqual({ checked: MAX, throttled: 30 - MAX });
  });

  it("throttles an unknown account the same way, so existence does not show", async () => {
    for (let i = 0; i < MAX; i++) await checkCredentials("ghost@example.com", "x", `10.2.0.${i}`);
    expect(await checkCredentials("ghost@example.com", "x", "10.2.0.9")).toMatchObject({ reason: "throttled" });
  });

  it("throttles an address after LOGIN_THROTTLE_MAX × 4 attempts across accounts", async () => {
    const max = MAX * ADDRESS_FACTOR;
    for (let i = 0; i < max; i++) await checkCredentials(`spray${i}@example.com`, "x", "10.9.9.9");
    expect(await checkCredentials("fresh@example.com", "x", "10.9.9.9")).toMatchObject({ reason: "throttled" });
    expect(await checkCredentials("fresh@example.com", "x", "10.9.9.8")).toEqual({ ok: false, reason: "invalid" });
  });

  it("lets the window run out", async () => {
    const keys = throttleKeys("old@example.com", "10.3.0.1");
    const now = Date.now();
    const elevenMinutesAgo = now - 11 * 60_000;
    for (let i = 0; i < MAX; i++) expect(await takeAttempt(keys, elevenMinutesAgo)).toEqual({ allowed: true });
    expect(await takeAttempt(keys, elevenMinutesAgo)).toMatchObject({ allowed: false });
    // Ten minutes later the window has run out: this attempt starts a new one.
    for (let i = 0; i < MAX; i++) expect(await takeAttempt(keys, now)).toEqual({ allowed: true });
    const refused = await takeAttempt(keys, now);
    expect(refused).toEqual({ allowed: false, waitMs: 10 * 60_000 });
  });

  it("a successful sign-in clears the account's count and gives the address its attempt back", async () => {
    await createUser({ email: "grace@example.com", role: "marketer", password: PASSWORD }, SYSTEM_ACTOR);
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    expect((await checkCredentials("grace@example.com", PASSWORD, "10.4.0.1")).ok).toBe(true);
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    expect((await checkCredentials("grace@example.com", PASSWORD, "10.4.0.1")).ok).toBe(true);
    // Many good sign-ins from one office address never lock it.
    for (let i = 0; i < MAX * ADDRESS_FACTOR + 2; i++) expect((await checkCredentials("ada@example.com", PASSWORD, "10.4.0.2")).ok).toBe(true);
  });
});
