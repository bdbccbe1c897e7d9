import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import { SYSTEM_ACTOR, listAudit } from "../audit";
import { useTestDb } from "../db/test-db";
import { setTestEnv } from "../test-helpers";
import { createUser, resetPassword } from "../users";
import { db } from "../db";
import { users } from "../db/schema/core";
import { eq } from "drizzle-orm";
import { checkCredentials, refusalMessage, INVALID_CODE } from "./credentials";
import { replaceRecoveryCodes } from "./recovery-codes";
import { checkSecondStep } from "./second-step";
import { issueTicket, readTicket, TICKET_TTL_MS } from "./sign-in-ticket";
import { beginTotp, useTotpCode } from "./totp";
import { createUserRequest } from "@/lib/schemas/users";

/** Sign-in with a second factor: no session before the code, one throttle for both guesses. */
const PASSWORD = "correct horse battery";
const MAX = 3;
let dispose: () => Promise<void>;

beforeAll(async () => {
  setTestEnv({ LOGIN_THROTTLE_MAX: String(MAX), LOGIN_THROTTLE_WINDOW_S: "600", LOGIN_THROTTLE_MAX_DELAY_S: "300" });
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
const T = Date.now();

/** A user with the app on (its first code used at T - 60 s) and ten recovery codes. */
async function twoFactorUser(email: string): Promise<{ id: string; secret: string; codes: string[] }> {
  const { user } = await createUser(createUserRequest.parse({ email, role: "support", password: PASSWORD }), SYSTEM_ACTOR);
  const secret = await beginTotp(user.id);
  expect(await useTotpCode(user.id, codeAt(secret, T - 60_000), { enrolling: true, now: T - 60_000 })).toBe(true);
  return { id: user.id, secret, codes: await replaceRecoveryCodes(user.id) };
}

async function getUserRow(id: string) {
  const [row] = await (await db()).select().from(users).where(eq(users.id, id)).limit(1);
  return row!;
}

async function ticketFor(email: string, address: string, now = T): Promise<string> {
  const step = await checkCredentials(email, PASSWORD, address, now);
  if (step.ok || step.reason !== "second_factor") throw new Error(`expected the second step, got ${JSON.stringify(step)}`);
  return step.ticket;
}

describe("the second step of sign-in", () => {
  it("a right password alone signs in no one: the answer is a ticket, and the code completes it once", async () => {
    const { id, secret } = await twoFactorUser("two@example.com");
    const ticket = await ticketFor("two@example.com", "10.0.0.1");
    expect(readTicket(ticket, T)?.userId).toBe(id);
    const code = codeAt(secret, T);
    const ok = await checkSecondStep(ticket, code, "10.0.0.1", T);
    expect(ok).toMatchObject({ ok: true, user: { id } });
    // The same code again, even with a fresh ticket: refused (replay within its window).
    expect(await checkSecondStep(await ticketFor("two@example.com", "10.0.0.1"), code, "10.0.0.1", T)).toEqual({ ok: false, reason: "invalid" });
    const { data } = await listAudit({ action: "auth.sign_in", q: "two@example.com", limit: 20 });
    expect(data.map((e) => [e.outcome, (e.detail as { method: string; reason?: string }).method, (e.detail as { reason?: string }).reason])).toEqual([
      ["failure", "password+code", "wrong code"],
      ["success", "password+totp", undefined],
    ]);
  });

  it("a recovery code works once, and not twice", async () => {
    const { codes } = await twoFactorUser("rec@example.com");
    expect(await checkSecondStep(await ticketFor("rec@example.com", "10.0.1.1"), ` ${codes[3].toUpperCase()} `, "10.0.1.1", T)).toMatchObject({ ok: true });
    expect(await checkSecondStep(await ticketFor("rec@example.com", "10.0.1.1"), codes[3], "10.0.1.1", T)).toEqual({ ok: false, reason: "invalid" });
  });

  it("wrong codes are counted with wrong passwords, and entering the password again does not reset the count", async () => {
    const { secret } = await twoFactorUser("guess@example.com");
    const ticket = await ticketFor("guess@example.com", "10.0.2.1"); // counted: 1
    expect(await checkSecondStep(ticket, "000001", "10.0.2.1", T)).toEqual({ ok: false, reason: "invalid" }); // 2
    await ticketFor("guess@example.com", "10.0.2.1"); // the password again: 3, not forgiven
    const refused = await checkSecondStep(ticket, codeAt(secret, T), "10.0.2.1", T);
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    expect(refusalMessage("invalid_code")).toBe(INVALID_CODE);
    // Another network is not held by this one's guesses.
    expect(await checkSecondStep(await ticketFor("guess@example.com", "10.0.3.1"), codeAt(secret, T), "10.0.3.1", T)).toMatchObject({ ok: true });
  });

  it("refuses a forged, altered or expired ticket before looking at the code", async () => {
    const { id, secret } = await twoFactorUser("tick@example.com");
    const good = await ticketFor("tick@example.com", "10.0.4.1");
    const [, exp, version, sig] = good.split(".");
    const other = `${Buffer.from("someone-else").toString("base64url")}.${exp}.${version}.${sig}`;
    const hash = (await getUserRow(id)).passwordHash!;
    for (const ticket of [other, `${good}x`, "a.b.c", "", issueTicket(id, hash, T - TICKET_TTL_MS - 1), issueTicket(id, "another password's hash", T)]) {
      expect(await checkSecondStep(ticket, codeAt(secret, T), "10.0.4.1", T)).toEqual({ ok: false, reason: "expired" });
    }
  });

  it("a password changed or reset after the password step makes its ticket worthless", async () => {
    const { id, secret } = await twoFactorUser("reset@example.com");
    const ticket = await ticketFor("reset@example.com", "10.0.6.1");
    await resetPassword(id, SYSTEM_ACTOR);
    expect(await checkSecondStep(ticket, codeAt(secret, T), "10.0.6.1", T)).toEqual({ ok: false, reason: "expired" });
  });

  it("a user without a second factor signs in with the password alone, as before", async () => {
    await createUser(createUserRequest.parse({ email: "one@example.com", role: "support", password: PASSWORD }), SYSTEM_ACTOR);
    expect(await checkCredentials("one@example.com", PASSWORD, "10.0.5.1", T)).toMatchObject({ ok: true });
  });
});
