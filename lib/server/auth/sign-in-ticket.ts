import "server-only";
import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "../env";

/**
 * Between the password and the second factor no session exists: the password step hands out
 * this ticket (kept by the sign-in action in an httpOnly cookie), which says only "this user's
 * password was right, until `exp`". It is signed with a key derived from AUTH_SECRET; the code
 * step checks it before anything else and creates the session only when the code is right.
 *
 * It also carries a digest of the password hash it was issued against (`passwordVersion`): a
 * password changed or reset since then makes the ticket worthless, so whoever learnt the old
 * password cannot finish a sign-in started with it (second-step.ts compares the two).
 */
export const TICKET_TTL_MS = 5 * 60_000;

function mac(body: string): Buffer {
  const key = Buffer.from(hkdfSync("sha256", env().AUTH_SECRET, "sign-in-ticket", "mail-dashboard/sign-in-ticket/v2", 32));
  return createHmac("sha256", key).update(body).digest();
}

/** A short digest of the stored password hash: changes whenever the password does (a new salt each time). */
export function passwordVersion(passwordHash: string): string {
  return createHash("sha256").update(passwordHash).digest("base64url").slice(0, 22);
}

export function issueTicket(userId: string, passwordHash: string, now = Date.now()): string {
  const body = `${Buffer.from(userId).toString("base64url")}.${now + TICKET_TTL_MS}.${passwordVersion(passwordHash)}`;
  return `${body}.${mac(body).toString("base64url")}`;
}

export type Ticket = { userId: string; passwordVersion: string };

/** What a ticket says, or null when it is forged, malformed or expired. */
export function readTicket(ticket: string, now = Date.now()): Ticket | null {
  const parts = ticket.split(".");
  if (parts.length !== 4 || ticket.length > 500) return null;
  const [id, exp, version, sig] = parts as [string, string, string, string];
  const expected = mac(`${id}.${exp}.${version}`);
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!/^\d{1,15}$/.test(exp) || Number(exp) < now) return null;
  return { userId: Buffer.from(id, "base64url").toString("utf8"), passwordVersion: version };
}
