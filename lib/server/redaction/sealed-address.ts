import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/server/env";

/**
 * An erased address at rest (erased_addresses.sealed): AES-256-GCM under a key of its own,
 * derived from AUTH_SECRET. Writers open it to find the address inside free text; a copy of
 * the database alone cannot. Format `v1.<iv>.<tag>.<ct>` (base64url).
 */
const INFO = "mail-dashboard/erased-address-seal/v1";
const keys = new Map<string, Buffer>();

function key(secret = env().AUTH_SECRET): Buffer {
  let k = keys.get(secret);
  if (!k) keys.set(secret, (k = Buffer.from(hkdfSync("sha256", secret, "erasure-seal", INFO, 32))));
  return k;
}

export function sealAddress(address: string, secret?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(secret), iv);
  const ct = Buffer.concat([cipher.update(address, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

/** The address, or null when it cannot be opened (another AUTH_SECRET sealed it). */
export function openAddress(sealed: string, secret?: string): string | null {
  const [version, iv, tag, ct] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ct === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(secret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
