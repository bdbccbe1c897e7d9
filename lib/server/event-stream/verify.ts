import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${id}.${timestamp}.${raw body}` with the signing secret, sent as `v1,<base64>` (several
 * space-separated signatures allowed, e.g. during a secret rotation), and a timestamp within
 * five minutes. Svix, which the scheme came from, sends the same thing under `svix-*` header
 * names; both are accepted.
 *
 * Written against node:crypto rather than the `standardwebhooks` package: its pure-JavaScript
 * SHA-256 is several times slower than the native one at the ingest's rates, and it cannot
 * say *why* a delivery failed, which the stream's health shows. Tests sign with the package,
 * so the two must agree.
 */
export const TOLERANCE_S = 5 * 60;

export type SignatureHeaders = { id: string; timestamp: string; signature: string };

/** The signature headers under either naming, or null when one of the three is missing. */
export function signatureHeaders(headers: Headers): SignatureHeaders | null {
  for (const prefix of ["webhook", "svix"]) {
    const id = headers.get(`${prefix}-id`);
    const timestamp = headers.get(`${prefix}-timestamp`);
    const signature = headers.get(`${prefix}-signature`);
    if (id && timestamp && signature) return { id, timestamp, signature };
  }
  return null;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The keys a signing secret may stand for. `whsec_<base64>` is the scheme's own form; a
 * secret without the prefix is tried as base64 and, since some services sign with the text
 * of the secret itself, as its raw bytes too.
 */
export function signingKeys(secret: string): Buffer[] {
  const s = secret.trim();
  if (s.startsWith("whsec_")) return [Buffer.from(s.slice(6), "base64")].filter((k) => k.length > 0);
  const keys: Buffer[] = [];
  if (BASE64.test(s)) {
    const decoded = Buffer.from(s, "base64");
    if (decoded.length > 0) keys.push(decoded);
  }
  keys.push(Buffer.from(s, "utf8"));
  return keys.filter((k) => k.length > 0);
}

export type VerifyResult = { ok: true; id: string } | { ok: false; reason: string };

/** Verifies one delivery against any of `keys`; the reason says what was wrong, in words. */
export function verifyDelivery(keys: Buffer[], raw: string, headers: Headers, now = Date.now()): VerifyResult {
  const h = signatureHeaders(headers);
  if (!h) return { ok: false, reason: "the delivery has no webhook-id, webhook-timestamp and webhook-signature headers (nor svix-*)" };
  const ts = Number.parseInt(h.timestamp, 10);
  if (!Number.isFinite(ts)) return { ok: false, reason: "the signature timestamp is not a number" };
  const skew = Math.floor(now / 1000) - ts;
  if (skew > TOLERANCE_S) return { ok: false, reason: `the signature timestamp is ${Math.round(skew / 60)} min old (more than 5 min)` };
  if (-skew > TOLERANCE_S) return { ok: false, reason: `the signature timestamp is ${Math.round(-skew / 60)} min in the future (more than 5 min)` };
  const passed = h.signature
    .split(" ")
    .map((s) => s.split(","))
    .filter(([version, sig]) => version === "v1" && sig)
    .map(([, sig]) => Buffer.from(sig!, "base64"));
  if (passed.length === 0) return { ok: false, reason: "the signature header has no v1 signature" };
  const signed = `${h.id}.${ts}.${raw}`;
  for (const key of keys) {
    const expected = createHmac("sha256", key).update(signed).digest();
    if (passed.some((p) => p.length === expected.length && timingSafeEqual(p, expected))) return { ok: true, id: h.id };
  }
  return { ok: false, reason: "the signature does not match the signing secret" };
}
