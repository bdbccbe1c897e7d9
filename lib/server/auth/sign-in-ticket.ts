import "server-only";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "../env";

/**
 * Between the password and the second factor no session exists: the password step hands out
 * this ticket (kept by the sign-in action in an httpOnly cookie), which says only "this user's
 * password was right, until `exp`". It is signed with a key derived from AUTH_SECRET; the code
 * step checks it before anything else and creates the session only when the code is right.
 */
export const TICKET_TTL_MS = 5 * 60_000;

function mac(body: string): Buffer {
  const key = Buffer.from(hkdfSync("sha256", env().AUTH_SECRET, "sign-in-ticket", "mail-dashboard/sign-in-ticket/v1", 32));
  return createHmac("sha256", key).update(body).digest();
}

export function issueTicket(userId: string, now = Date.now()): string {
  const body = `${Buffer.from(userId).toString("base64url")}.${now + TICKET_TTL_MS}`;
  return `${body}.${mac(body).toString("base64url")}`;
}

/** The user id a ticket names, or null when it is forged, malformed or expired. */
export function readTicket(ticket: string, now = Date.now()): string | null {
  const parts = ticket.split(".");
  if (parts.length !== 3 || ticket.length > 500) return null;
  const [id, exp, sig] = parts as [string, string, string];
  const expected = mac(`${id}.${exp}`);
  const given = Buffer.from(sig, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!/^\d{1,15}$/.test(exp) || Number(exp) < now) return null;
  return Buffer.from(id, "base64url").toString("utf8");
}
