import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, listAudit } from "../audit";
import { db } from "../db";
import { loginThrottle } from "../db/schema/core";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser, resetPassword, updateUser } from "../users";
import { INVALID_CREDENTIALS, REFUSAL_FLOOR_MS, checkCredentials, refusalMessage, throttledMessage } from "./credentials";
import { BusyLogin, InvalidLogin, ThrottledLogin } from "./next-auth";
import { passwordPoolStats, resetPasswordPool } from "./password-pool";
import { ACCOUNT_FACTOR, ACCOUNT_MAX_DELAY_S, ADDRESS_FACTOR, delayMs, takeAttempt, throttleKeys } from "./throttle";
import { auditQuery } from "@/lib/schemas/audit";
import { createUserRequest } from "@/lib/schemas/users";

let dispose: () => Promise<void>;
const PASSWORD = "correct horse battery";
const MAX = 3;
const MAX_DELAY_S = 300;

beforeAll(async () => {
  setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: String(MAX_DELAY_S) });
  ({ dispose } = await useTestDb());
  await createUser(createUserRequest.parse({ email: "ada@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
  const { user } = await createUser(createUserRequest.parse({ email: "off@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
  await updateUser(user.id, { active: false }, SYSTEM_ACTOR);
});
afterAll(() => dispose());

type Entry = { reason?: string; count?: number; address?: string; network?: string };
async function signInEntries(email: string): Promise<Entry[]> {
  const { data } = await listAudit({ action: "auth.sign_in", q: email, limit: 100 });
  return data.filter((e) => e.target === email).map((e) => e.detail as Entry);
}

/** Each password check of a known account leaves one audit entry; throttled tries one entry per flood. */
async function passwordChecks(email: string): Promise<{ checked: number; throttledEntries: number; throttledTries: number }> {
  const entries = await signInEntries(email);
  const throttled = entries.filter((e) => e.reason === "throttled");
  return { checked: entries.length - throttled.length, throttledEntries: throttled.length, throttledTries: throttled.reduce((n, e) => n + (e.count ?? 0), 0) };
}

/** The clock of the throttle, held still: bcrypt and a busy machine cannot let a delay run out mid-test. */
const T = Date.now();
const fail = (email: string, address: string, now = T) => checkCredentials(email, "wrong", address, now);
const signIn = (email: string, address: string, now = T) => checkCredentials(email, PASSWORD, address, now);

describe("checkCredentials", () => {
  it("accepts the right password, case-insensitively on the email, and records the sign-in", async () => {
    const result = await checkCredentials(" Ada@Example.com ", PASSWORD, "10.0.0.1");
    expect(result.ok).toBe(true);
    const { data } = await listAudit(auditQuery.parse({ action: "auth.sign_in", outcome: "success" }));
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

  it("a stranger's failures from one address never keep the owner out at another (the review's lock-out)", async () => {
    await createUser(createUserRequest.parse({ email: "admin-only@example.com", role: "admin", password: PASSWORD }), SYSTEM_ACTOR);
    for (let i = 0; i < 20; i++) await fail("admin-only@example.com", "198.51.100.66");
    expect(await signIn("admin-only@example.com", "198.51.100.66")).toMatchObject({ ok: false, reason: "throttled" });
    // The owner, at an address that never failed, signs in at once.
    expect((await signIn("admin-only@example.com", "203.0.113.10")).ok).toBe(true);
  });

  it("slows a pair with growing delays after LOGIN_THROTTLE_MAX failures, never a hard lock", async () => {
    const keys = throttleKeys("lin@example.com", "10.1.0.1");
    const t0 = Date.now();
    for (let i = 0; i < MAX; i++) expect(await takeAttempt(keys, t0)).toEqual({ allowed: true });
    // MAX failures: the next attempt waits 1 s after the last one, then 2 s, then 4 s.
    expect(await takeAttempt(keys, t0 + 500)).toMatchObject({ allowed: false, waitMs: 500 });
    expect(await takeAttempt(keys, t0 + 1000)).toEqual({ allowed: true });
    expect(await takeAttempt(keys, t0 + 2999)).toMatchObject({ allowed: false, waitMs: 1 });
    expect(await takeAttempt(keys, t0 + 3000)).toEqual({ allowed: true });
    expect(await takeAttempt(keys, t0 + 6000)).toMatchObject({ allowed: false, waitMs: 1000 });
    expect(await takeAttempt(keys, t0 + 7000)).toEqual({ allowed: true });
    // The delay stops growing at LOGIN_THROTTLE_MAX_DELAY_S.
    expect(delayMs(MAX + 40, MAX, MAX_DELAY_S * 1000)).toBe(MAX_DELAY_S * 1000);
    expect([0, 1, 2, 3].map((n) => delayMs(MAX + n, MAX, 60_000))).toEqual([1000, 2000, 4000, 8000]);
    expect(throttledMessage(1500)).toBe("Too many sign-in attempts. Try again in 2 seconds.");
    expect(throttledMessage(1000)).toBe("Too many sign-in attempts. Try again in 1 second.");
    expect(throttledMessage(150_000)).toBe("Too many sign-in attempts. Try again in 3 minutes.");
  });

  it("30 parallel guesses from one address get at most LOGIN_THROTTLE_MAX password checks, and one audit entry for the rest", async () => {
    await createUser(createUserRequest.parse({ email: "burst@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => checkCredentials("burst@example.com", `guess-${i}`, "10.5.0.1", T)));
    expect(answers.filter((a) => !a.ok && a.reason === "invalid")).toHaveLength(MAX);
    expect(answers.filter((a) => !a.ok && a.reason === "throttled")).toHaveLength(30 - MAX);
    expect(await passwordChecks("burst@example.com")).toEqual({ checked: MAX, throttledEntries: 1, throttledTries: 30 - MAX });
  });

  it("a flood of throttled tries is one audit entry with its count, per pair", async () => {
    await createUser(createUserRequest.parse({ email: "flood@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    for (let i = 0; i < MAX; i++) await fail("flood@example.com", "10.6.0.1");
    for (let i = 0; i < 40; i++) expect(await fail("flood@example.com", "10.6.0.1")).toMatchObject({ reason: "throttled" });
    for (let i = 0; i < MAX; i++) await fail("flood@example.com", "10.6.0.2");
    for (let i = 0; i < 5; i++) await fail("flood@example.com", "10.6.0.2");
    const entries = await signInEntries("flood@example.com");
    expect(entries.filter((e) => e.reason === "wrong password")).toHaveLength(2 * MAX);
    const throttled = entries.filter((e) => e.reason === "throttled").sort((a, b) => (a.address! < b.address! ? -1 : 1));
    expect(throttled).toMatchObject([
      { address: "10.6.0.1", count: 40 },
      { address: "10.6.0.2", count: 5 },
    ]);
  });

  it("throttles an unknown account the same way, so existence does not show", async () => {
    for (let i = 0; i < MAX; i++) await fail("ghost@example.com", "10.2.0.1");
    expect(await fail("ghost@example.com", "10.2.0.1")).toMatchObject({ reason: "throttled" });
  });

  it("slows an address after LOGIN_THROTTLE_MAX × 4 failures across accounts; other addresses go on", async () => {
    const max = MAX * ADDRESS_FACTOR;
    for (let i = 0; i < max; i++) await fail(`spray${i}@example.com`, "10.9.9.9");
    expect(await fail("fresh@example.com", "10.9.9.9")).toMatchObject({ reason: "throttled" });
    expect(await fail("fresh@example.com", "10.9.9.8")).toEqual({ ok: false, reason: "invalid" });
  });

  it("bounds a guesser spread over many networks: past the account's free failures each network gets one pass, then waits; known networks pass", async () => {
    await createUser(createUserRequest.parse({ email: "target@example.com", role: "admin", password: PASSWORD }), SYSTEM_ACTOR);
    expect((await signIn("target@example.com", "192.0.2.1")).ok).toBe(true); // the owner's network, now known
    const spread = MAX * ACCOUNT_FACTOR;
    for (let i = 0; i < spread; i++) expect(await fail("target@example.com", `10.7.${i}.1`)).toEqual({ ok: false, reason: "invalid" });
    // A new network's first try goes through the account's delay (its pass)…
    expect(await fail("target@example.com", "10.7.99.1")).toEqual({ ok: false, reason: "invalid" });
    // …and its next waits (at most ACCOUNT_MAX_DELAY_S, however long the spread goes on), as do
    // networks that failed before: each has one pass, spent once.
    const slowed = await fail("target@example.com", "10.7.99.1");
    expect(slowed).toMatchObject({ ok: false, reason: "throttled" });
    expect((slowed as { waitMs: number }).waitMs).toBeLessThanOrEqual(ACCOUNT_MAX_DELAY_S * 1000);
    expect(await fail("target@example.com", "10.7.0.1")).toEqual({ ok: false, reason: "invalid" });
    expect(await fail("target@example.com", "10.7.0.1")).toMatchObject({ ok: false, reason: "throttled" });
    // …and the owner at a known network is never slowed by it.
    expect((await signIn("target@example.com", "192.0.2.1")).ok).toBe(true);
  });

  it("a stranger who keeps the account's delay going cannot keep the owner out at a new network (M1)", async () => {
    await createUser(createUserRequest.parse({ email: "kept@example.com", role: "admin", password: PASSWORD }), SYSTEM_ACTOR);
    for (let i = 0; i < MAX * ACCOUNT_FACTOR; i++) await fail("kept@example.com", `10.20.${i}.1`);
    // Each time the account's delay runs out, one more counted failure from another network.
    let t = T;
    for (let k = 0; k < 4; k++) {
      t += delayMs(MAX * ACCOUNT_FACTOR + k, MAX * ACCOUNT_FACTOR, ACCOUNT_MAX_DELAY_S * 1000);
      expect(await fail("kept@example.com", `10.22.${k}.1`, t)).toEqual({ ok: false, reason: "invalid" });
    }
    // Right after the stranger's last failure, the owner at a network never used signs in.
    expect((await signIn("kept@example.com", "2001:db8:77:1::5", t + 1)).ok).toBe(true);
  });

  it("counts an IPv6 client by its /64: a new address in the same network is no fresh budget, and its refusals are one audit entry", async () => {
    await createUser(createUserRequest.parse({ email: "v6@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    for (let i = 1; i <= MAX; i++) expect(await fail("v6@example.com", `2001:db8:7:1::${i}`)).toEqual({ ok: false, reason: "invalid" });
    for (let i = 0; i < 5; i++) expect(await fail("v6@example.com", `2001:db8:7:1:${i}:ffff::9`)).toMatchObject({ reason: "throttled" });
    expect(await fail("v6@example.com", "2001:db8:7:2::1")).toEqual({ ok: false, reason: "invalid" });
    const throttled = (await signInEntries("v6@example.com")).filter((e) => e.reason === "throttled");
    expect(throttled).toMatchObject([{ count: 5, network: "2001:db8:7:1::/64" }]);
    // Across accounts the /64 is one network too.
    for (let i = 0; i < MAX * ADDRESS_FACTOR; i++) await fail(`v6spray${i}@example.com`, `2001:db8:8:1::${(i + 1).toString(16)}`);
    expect(await fail("v6fresh@example.com", "2001:db8:8:1:abcd::1")).toMatchObject({ reason: "throttled" });
  });

  it("a refused try takes as long whether or not the account exists: no less than REFUSAL_FLOOR_MS", async () => {
    await createUser(createUserRequest.parse({ email: "timed@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    for (const email of ["timed@example.com", "not-timed@example.com"]) {
      for (let i = 0; i < MAX; i++) await fail(email, "10.31.0.1");
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        expect(await fail(email, "10.31.0.1")).toMatchObject({ reason: "throttled" });
        expect(performance.now() - started).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS);
      }
    }
  });

  it("made-up emails from one address make a bounded number of rows: no account rows, none for a refused try (M2)", async () => {
    const d = await db();
    const keys = async () => (await d.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key);
    const answers: string[] = [];
    for (let i = 0; i < 200; i++) {
      const a = await checkCredentials(`made-up-${i}@example.com`, "wrong", "10.30.0.1", T);
      answers.push(a.ok ? "ok" : a.reason);
    }
    expect(answers.filter((a) => a === "invalid")).toHaveLength(MAX * ADDRESS_FACTOR);
    const rows = (await keys()).filter((k) => k.includes("made-up-") || k.includes("10.30.0.1"));
    // The network's row and one pair per counted try; nothing names an account, nothing for a refusal.
    expect(rows.sort()).toEqual(["address:10.30.0.1", ...Array.from({ length: MAX * ADDRESS_FACTOR }, (_, i) => `pair:${JSON.stringify([`made-up-${i}@example.com`, "10.30.0.1"])}`)].sort());
  });

  it("an admin's password reset lifts the account's counts at every address, not another account's", async () => {
    const { user } = await createUser(createUserRequest.parse({ email: "reset@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    for (const address of ["10.8.0.1", "10.8.0.2"]) for (let i = 0; i < MAX; i++) await fail("reset@example.com", address);
    for (let i = 0; i < MAX; i++) await fail("reset2@example.com", "10.8.0.1");
    expect(await fail("reset@example.com", "10.8.0.2")).toMatchObject({ reason: "throttled" });
    const { password } = await resetPassword(user.id, SYSTEM_ACTOR);
    for (const address of ["10.8.0.1", "10.8.0.2"]) expect((await checkCredentials("reset@example.com", password, address, T)).ok).toBe(true);
    expect(await fail("reset2@example.com", "10.8.0.1")).toMatchObject({ reason: "throttled" });
  });

  it("lets the window run out", async () => {
    const keys = throttleKeys("old@example.com", "10.3.0.1");
    const now = Date.now();
    const elevenMinutesAgo = now - 11 * 60_000;
    for (let i = 0; i < MAX; i++) expect(await takeAttempt(keys, elevenMinutesAgo)).toEqual({ allowed: true });
    expect(await takeAttempt(keys, elevenMinutesAgo)).toMatchObject({ allowed: false });
    // Ten minutes later the window has run out: the count starts again.
    for (let i = 0; i < MAX; i++) expect(await takeAttempt(keys, now)).toEqual({ allowed: true });
    expect(await takeAttempt(keys, now)).toMatchObject({ allowed: false, waitMs: 1000 });
  });

  it("a successful sign-in clears the pair's count and gives the address its attempt back", async () => {
    await createUser(createUserRequest.parse({ email: "grace@example.com", role: "marketer", password: PASSWORD }), SYSTEM_ACTOR);
    await fail("grace@example.com", "10.4.0.1");
    await fail("grace@example.com", "10.4.0.1");
    expect((await signIn("grace@example.com", "10.4.0.1")).ok).toBe(true);
    await fail("grace@example.com", "10.4.0.1");
    await fail("grace@example.com", "10.4.0.1");
    expect((await signIn("grace@example.com", "10.4.0.1")).ok).toBe(true);
    // Many good sign-ins from one office address never slow it.
    for (let i = 0; i < MAX * ADDRESS_FACTOR + 2; i++) expect((await signIn("ada@example.com", "10.4.0.2")).ok).toBe(true);
  });

  it("1,000 failed tries from rotating networks and made-up emails leave at most LOGIN_THROTTLE_MAX_KEYS rows and a tenth (M2)", async () => {
    const cap = 100;
    setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: String(MAX_DELAY_S), LOGIN_THROTTLE_MAX_KEYS: String(cap) });
    try {
      const d = await db();
      const count = async () => (await d.select({ key: loginThrottle.key }).from(loginThrottle)).length;
      // An owner's known network, made before the flood, is kept longest: the flood evicts its own rows first.
      expect((await signIn("ada@example.com", "10.51.0.1", T - 60_000)).ok).toBe(true);
      const known = throttleKeys("ada@example.com", "10.51.0.1").known;
      let most = 0;
      for (let i = 0; i < 1000; i++) {
        // Half IPv4 addresses, half IPv6 networks: every try is a fresh network, so every one is counted.
        const address = i % 2 ? `10.50.${i >> 8}.${i & 255}` : `2001:db8:50:${i.toString(16)}::1`;
        expect(await takeAttempt(throttleKeys(`rotating-${i}@example.com`, address), T, { exists: false })).toEqual({ allowed: true });
        if (i % 50 === 49) most = Math.max(most, await count());
      }
      expect(most).toBeLessThanOrEqual(cap + cap / 10 + 2);
      expect(await count()).toBeLessThanOrEqual(cap + cap / 10 + 2);
      expect(await d.select().from(loginThrottle).where(eq(loginThrottle.key, known))).toHaveLength(1);
    } finally {
      setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: String(MAX_DELAY_S) });
    }
  });

  it("twenty sign-ins at once, made-up emails or not, run at most PASSWORD_WORKERS checks; the rest are told the server is busy", async () => {
    setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: String(MAX_DELAY_S), PASSWORD_WORKERS: "1", PASSWORD_QUEUE: "1" });
    await resetPasswordPool();
    try {
      await createUser(createUserRequest.parse({ email: "crowd@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
      let mostRunning = 0;
      const watch = () => (mostRunning = Math.max(mostRunning, passwordPoolStats().running));
      // Each from a network of its own, well inside the throttle's free tries.
      const tries = Array.from({ length: 20 }, async (_, i) => {
        const email = i % 2 ? "crowd@example.com" : `made-up-${i}@example.com`;
        const started = performance.now();
        const result = await checkCredentials(email, "guess", `10.40.${i}.1`).finally(watch);
        return { email, result, ms: performance.now() - started };
      });
      const answers = await Promise.all(tries);
      const busy = answers.filter((a) => a.result.ok === false && a.result.reason === "busy");
      const invalid = answers.filter((a) => a.result.ok === false && a.result.reason === "invalid");
      expect(busy.length + invalid.length).toBe(20);
      expect(busy.length).toBeGreaterThan(0);
      expect(mostRunning).toBeLessThanOrEqual(1);
      // One answer whether the account exists or not, and no quicker than a throttled one.
      for (const a of busy) {
        expect(a.result).toEqual({ ok: false, reason: "busy", waitMs: 2000 });
        expect(a.ms).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS);
      }
      // What the sign-in form shows: the refusal's code is all that reaches it (index.ts, login/actions.ts).
      expect(refusalMessage(new BusyLogin(2000).code)).toBe("Too many sign-ins at once. Try again in 2 seconds.");
      expect(refusalMessage(new ThrottledLogin(61_000).code)).toBe("Too many sign-in attempts. Try again in 2 minutes.");
      expect(refusalMessage(new InvalidLogin().code)).toBe(INVALID_CREDENTIALS);
      // The account's audit log holds the checks that ran, and nothing for the refused ones.
      expect((await passwordChecks("crowd@example.com")).checked).toBe(invalid.filter((a) => a.email === "crowd@example.com").length);
    } finally {
      setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: String(MAX_DELAY_S) });
      await resetPasswordPool();
    }
  });
});
