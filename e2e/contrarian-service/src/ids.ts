import { createHash, randomBytes } from "node:crypto";

/** Crockford's base32: no I, L, O or U, so ids read aloud without ambiguity. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function base32(bytes: Buffer): string {
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

/**
 * Opaque ids, deliberately unlike UUIDs: a short kind, a separator that a URL leaves as it
 * is but naive code may not expect (`.` or `~`), and random base32. Examples: `em.7Q2XK4MZ9A`,
 * `dn~K1Z0QW3R`.
 */
export function newId(kind: "em" | "dn" | "ct" | "wh" | "ak" | "at" | "tp" | "dl", length = 10): string {
  const separator = kind === "dn" || kind === "wh" || kind === "dl" ? "~" : ".";
  return `${kind}${separator}${base32(randomBytes(length))}`;
}

export function newSecret(bytes = 24): string {
  return randomBytes(bytes).toString("base64");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A page cursor: the list it belongs to and the offset of the next item, opaque to clients. */
export function encodeCursor(list: string, offset: number): string {
  return `pg~${Buffer.from(`${list}:${offset}`).toString("base64url")}`;
}

export function decodeCursor(list: string, cursor: string): number | null {
  if (!cursor.startsWith("pg~")) return null;
  const [kind, offset] = Buffer.from(cursor.slice(3), "base64url").toString().split(":");
  const n = Number(offset);
  return kind === list && Number.isInteger(n) && n >= 0 ? n : null;
}
