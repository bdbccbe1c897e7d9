import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "../audit";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser, updateUser } from "../users";
import { INVALID_CREDENTIALS, checkCredentials, throttledMessage } from "./credentials";
import { ADDRESS_FACTOR, recordFailure, throttleKeys, throttledFor } from "./throttle";

let dispose: () => Promise<void>;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  setTestEnv({ LOGIN_THROTTLE_MAX: "3", LOGIN_THROTTLE_WINDOW_S: "600" });
  ({ dispose } = await useTestDb());
  await createUser({ email: "ada@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
  const { user } = await createUser({ email: "off@example.com", role: "support", password: PASSWORD }, SYSTEM_ACTOR);
  await updateUser(user.id, { active: false }, SYSTEM_ACTOR);
});
afterAll(() => dispose());

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
    for (let i = 0; i < 3; i++) {
      expect(await checkCredentials("lin@example.com", "wrong", `10.1.0.${i}`)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await checkCredentials("lin@example.com", PASSWORD, "10.1.0.99")).toEqual({ ok: false, reason: "throttled", minutes: 10 });
    expect(throttledMessage(10)).toBe("Too many sign-in attempts. Try again in 10 minutes.");
    expect(throttledMessage(1)).toBe("Too many sign-in attempts. Try again in 1 minute.");
  });

  it("throttles an unknown account the same way, so existence does not show", async () => {
    for (let i = 0; i < 3; i++) await checkCredentials("ghost@example.com", "x", `10.2.0.${i}`);
    expect(await checkCredentials("ghost@example.com", "x", "10.2.0.9")).toMatchObject({ reason: "throttled" });
  });

  it("throttles an address after LOGIN_THROTTLE_MAX × 4 failures across accounts", async () => {
    const max = 3 * ADDRESS_FACTOR;
    for (let i = 0; i < max; i++) await checkCredentials(`spray${i}@example.com`, "x", "10.9.9.9");
    expect(await checkCredentials("fresh@example.com", "x", "10.9.9.9")).toMatchObject({ reason: "throttled" });
    expect(await checkCredentials("fresh@example.com", "x", "10.9.9.8")).toEqual({ ok: false, reason: "invalid" });
  });

  it("lets the window expire", async () => {
    const keys = throttleKeys("old@example.com", "10.3.0.1");
    const elevenMinutesAgo = Date.now() - 11 * 60_000;
    for (let i = 0; i < 3; i++) await recordFailure(keys, elevenMinutesAgo);
    expect(await throttledFor(keys)).toBe(0);
    await recordFailure(keys);
    await recordFailure(keys);
    await recordFailure(keys);
    const wait = await throttledFor(keys);
    expect(wait).toBeGreaterThan(9 * 60_000);
    expect(wait).toBeLessThanOrEqual(10 * 60_000);
  });

  it("a successful sign-in clears the account's count", async () => {
    await createUser({ email: "grace@example.com", role: "marketer", password: PASSWORD }, SYSTEM_ACTOR);
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    expect((await checkCredentials("grace@example.com", PASSWORD, "10.4.0.1")).ok).toBe(true);
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    await checkCredentials("grace@example.com", "wrong", "10.4.0.1");
    expect((await checkCredentials("grace@example.com", PASSWORD, "10.4.0.1")).ok).toBe(true);
  });
});
