import "server-only";
import { createHmac, timingSafeEqual, type Hmac } from "node:crypto";

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${id}.${timestamp}.${raw body}` with the signing secret, sent as `v1,<base64>` (several
 * space-separated signatures allowed, e.g. during a secret rotation), and a timestamp within
 * five minutes. Svix, which the scheme came from, sends the same thing under `svix-*` header
 * names; both are accepted.
 *
 * Written against node:crypto rather than the `standardwebhooks` package: its pure-JavaScript
 * SHA-256 is several times slower than the native one at the ingest's rates, it cannot say
 * *why* a delivery failed, which the stream's health shows, and it needs the whole body at
 * once — here the headers are read first (./ingest.ts refuses a delivery without them
 * unread) and the MAC is fed chunk by chunk as the body arrives (`SignatureCheck.update`).
 * Tests sign with the package, so the two must agree.
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

/** What the headers claim, read before the body: the id, the timestamp, the v1 signatures. */
export type SignatureClaim = { id: string; timestamp: number; signatures: Buffer[] };

export type HeaderCheck = { ok: true; claim: SignatureClaim } | { ok: false; reason: string };

/** The headers' claim, or why there is none (no headers, a timestamp that is no number, no v1 signature). */
export function readSignatureClaim(headers: Headers): HeaderCheck {
  const h = signatureHeaders(headers);
  if (!h) return { ok: false, reason: "the delivery has no webhook-id, webhook-timestamp and webhook-signature headers (nor svix-*)" };
  const timestamp = Number.parseInt(h.timestamp, 10);
  if (!Number.isFinite(timestamp)) return { ok: false, reason: "the signature timestamp is not a number" };
  const signatures = h.signature
    .split(" ")
    .map((s) => s.split(","))
    .filter(([version, sig]) => version === "v1" && sig)
    .map(([, sig]) => Buffer.from(sig!, "base64"));
  if (signatures.length === 0) return { ok: false, reason: "the signature header has no v1 signature" };
  return { ok: true, claim: { id: h.id, timestamp, signatures } };
}

/** Why the claim's timestamp is outside the tolerance, or null when it is within. */
export function timestampProblem(claim: SignatureClaim, now = Date.now()): string | null {
  const skew = Math.floor(now / 1000) - claim.timestamp;
  if (skew > TOLERANCE_S) return `the signature timestamp is ${Math.round(skew / 60)} min old (more than 5 min)`;
  if (-skew > TOLERANCE_S) return `the signature timestamp is ${Math.round(-skew / 60)} min in the future (more than 5 min)`;
  return null;
}

/**
 * The MAC of one delivery under each key, computed as the body's chunks arrive: the body is
 * never copied into `${id}.${timestamp}.${body}`.
 */
export class SignatureCheck {
  private readonly macs: Hmac[];
  constructor(
    keys: Buffer[],
    private readonly claim: SignatureClaim,
  ) {
    this.macs = keys.map((key) => createHmac("sha256", key).update(`${claim.id}.${claim.timestamp}.`));
  }

  update(chunk: Uint8Array): void {
    for (const mac of this.macs) mac.update(chunk);
  }

  /** Whether any key's MAC is one of the claimed signatures. Call once, after the last chunk. */
  matches(): boolean {
    return this.macs.some((mac) => {
      const expected = mac.digest();
      return this.claim.signatures.some((p) => p.length === expected.length && timingSafeEqual(p, expected));
    });
  }
}

export const SIGNATURE_MISMATCH = "the signature does not match the signing secret";

/**
 * The verdict on a delivery whose MAC was computed: `signed` tells a delivery made with the
 * project's key (only its timestamp may be wrong) from one anybody could have sent.
 */
export type VerifyResult = { ok: true; id: string } | { ok: false; reason: string; signed: boolean };

export function verdict(claim: SignatureClaim, macMatches: boolean, now = Date.now()): VerifyResult {
  if (!macMatches) return { ok: false, reason: SIGNATURE_MISMATCH, signed: false };
  const late = timestampProblem(claim, now);
  return late ? { ok: false, reason: late, signed: true } : { ok: true, id: claim.id };
}

/** Verifies one whole delivery against any of `keys`; the reason says what was wrong, in words. */
export function verifyDelivery(keys: Buffer[], raw: string | Uint8Array, headers: Headers, now = Date.now()): VerifyResult {
  const read = readSignatureClaim(headers);
  if (!read.ok) return { ok: false, reason: read.reason, signed: false };
  const check = new SignatureCheck(keys, read.claim);
  check.update(typeof raw === "string" ? Buffer.from(raw) : raw);
  return verdict(read.claim, check.matches(), now);
}
