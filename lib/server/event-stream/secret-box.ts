import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/server/env";

/**
 * Webhook signing secrets at rest: AES-256-GCM under a key derived from AUTH_SECRET with
 * HKDF, so a copy of the database alone cannot forge deliveries. Format: `v1.<iv>.<tag>.<ct>`
 * (base64url), the version leaving room for a key rotation.
 */
const INFO = "mail-dashboard/event-stream-secret/v1";

function key(secret = env().AUTH_SECRET): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "event-streams", INFO, 32));
}

export function sealSecret(plain: string, secret?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(secret), iv);
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

export function openSecret(sealed: string, secret?: string): string {
  const [version, iv, tag, ct] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ct === undefined) throw new Error("event stream secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", key(secret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}
