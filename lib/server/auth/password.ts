import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { compareInWorker } from "./password-pool";

/**
 * bcrypt cost: ~100 ms per check in pure JS, slow for guessing, quick enough for a sign-in.
 * Vitest (NODE_ENV=test) hashes at the lowest cost: the tests check who may sign in and how
 * often, not bcrypt's speed, and at 11 the password checks were half of the suite's slowest
 * file. The dashboard itself, built or in dev, always uses 11.
 */
const COST = process.env.NODE_ENV === "test" ? 4 : 11;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

/**
 * Every check goes through the process-wide bound and runs off the request thread
 * (password-pool.ts); when that is full it throws a 429 `sign_ins_busy` before any work.
 */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return compareInWorker(password, hash);
}

/**
 * Compared against when the account does not exist or has no password, so an unknown
 * email costs the same time as a wrong password and cannot be told apart. Any hash at COST
 * does (no account holds it), so it is written out rather than worked out at every start:
 * hashSync at cost 11 held the event loop about 150 ms in each server bundle importing this
 * (two in the built dashboard) before the first request could be answered.
 */
export const DUMMY_HASH = COST === 11 ? "$2b$11$u1nAYQDdkElJ16KcBMlALe4JHgHJ.OOWr49.fgG6HMYVEF8i79kPu" : "$2b$04$2cYQHlcfK/xcUBgku0qLlua4R18MmfhS3F.eWteuTnHZMlyK93nDm";

/** 24 characters, ~143 bits; no look-alike problems since it is meant to be copied, not typed. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
