import "server-only";
import { createHmac, hkdfSync, randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "@/lib/schemas/words";
import { db } from "../db";
import { recoveryCodes } from "../db/schema/two-factor";
import { env } from "../env";

/**
 * Recovery codes: RECOVERY_CODE_COUNT of them, `xxxxx-xxxxx` in an alphabet without look-alikes
 * (about 50 bits each), shown once and kept only as an HMAC under a key derived from AUTH_SECRET — a
 * copy of the database alone cannot be searched for them. Each is good once: using one marks
 * it in the same conditional UPDATE that checks it.
 */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const RECOVERY_FORM = /^[a-z0-9]{5}-?[a-z0-9]{5}$/;

function hashKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", env().AUTH_SECRET, "recovery-codes", "mail-dashboard/recovery-code/v1", 32));
}

function hashCode(code: string): string {
  return createHmac("sha256", hashKey()).update(code).digest("base64url");
}

/** Lower-case, no spaces, the dash put back: how a code is typed need not match how it was shown. */
export function normalRecoveryCode(input: string): string | null {
  const plain = input.replace(/\s/g, "").toLowerCase();
  if (!RECOVERY_FORM.test(plain)) return null;
  const bare = plain.replace("-", "");
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
}

function newCode(): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** A new set replaces every code the user had; answers the codes, to be shown once. */
export async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const d = await db();
  await d.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })));
  });
  return codes;
}

/** Uses a code up; true when it was one of the user's unused codes. */
export async function useRecoveryCode(userId: string, input: string, now = Date.now()): Promise<boolean> {
  const code = normalRecoveryCode(input);
  if (!code) return false;
  const d = await db();
  const used = await d
    .update(recoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

export async function recoveryCodesLeft(userId: string): Promise<number> {
  const d = await db();
  const [row] = await d.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function removeRecoveryCodes(userId: string): Promise<void> {
  const d = await db();
  await d.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
