import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { readSignatureClaim, SignatureCheck, signingKeys, verifyDelivery } from "./verify";

const RAW_KEY = "0123456789abcdef0123456789abcdef";
const B64 = Buffer.from(RAW_KEY).toString("base64");
const body = JSON.stringify({ type: "delivered", data: { messageId: "m1" } });

/** Signed by the reference library, as a Standard Webhooks sender would. */
function sign(secret: string, opts: { id?: string; at?: Date; prefix?: "webhook" | "svix"; format?: "raw" } = {}) {
  const id = opts.id ?? "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
  const at = opts.at ?? new Date();
  const p = opts.prefix ?? "webhook";
  const signature = new Webhook(secret, opts.format ? { format: opts.format } : undefined).sign(id, at, body);
  return new Headers({ [`${p}-id`]: id, [`${p}-timestamp`]: String(Math.floor(at.getTime() / 1000)), [`${p}-signature`]: signature });
}

describe("verifyDelivery", () => {
  it("agrees with the reference library, with or without the whsec_ prefix", () => {
    expect(verifyDelivery(signingKeys(`whsec_${B64}`), body, sign(`whsec_${B64}`))).toEqual({ ok: true, id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W" });
    expect(verifyDelivery(signingKeys(B64), body, sign(B64)).ok).toBe(true);
  });

  it("accepts the svix-* header names", () => {
    expect(verifyDelivery(signingKeys(`whsec_${B64}`), body, sign(`whsec_${B64}`, { prefix: "svix", id: "svix_1" }))).toEqual({ ok: true, id: "svix_1" });
  });

  it("accepts a service that signs with the secret's own bytes", () => {
    const secret = "plain-text-secret-of-some-service!";
    expect(verifyDelivery(signingKeys(secret), body, sign(secret, { format: "raw" })).ok).toBe(true);
  });

  it("says why a delivery does not verify", () => {
    const keys = signingKeys(`whsec_${B64}`);
    expect(verifyDelivery(keys, `${body} `, sign(`whsec_${B64}`))).toEqual({ ok: false, reason: "the signature does not match the signing secret", signed: false });
    expect(verifyDelivery(keys, body, sign(`whsec_${Buffer.from("another-key-another-key-another-k").toString("base64")}`)).ok).toBe(false);
    // Made with the key, only late or early: `signed`, which may move the project's mode (./health.ts).
    expect(verifyDelivery(keys, body, sign(`whsec_${B64}`, { at: new Date(Date.now() - 10 * 60_000) }))).toEqual({ ok: false, reason: expect.stringMatching(/10 min old/), signed: true });
    expect(verifyDelivery(keys, body, sign(`whsec_${B64}`, { at: new Date(Date.now() + 10 * 60_000) }))).toEqual({ ok: false, reason: expect.stringMatching(/in the future/), signed: true });
    // Late and not made with the key: a stranger's, however late.
    expect(verifyDelivery(keys, `${body} `, sign(`whsec_${B64}`, { at: new Date(Date.now() - 10 * 60_000) }))).toEqual({ ok: false, reason: "the signature does not match the signing secret", signed: false });
    expect(verifyDelivery(keys, body, new Headers())).toEqual({ ok: false, reason: expect.stringMatching(/no webhook-id/), signed: false });
    const v2 = sign(`whsec_${B64}`);
    v2.set("webhook-signature", "v2,abc");
    expect(verifyDelivery(keys, body, v2)).toEqual({ ok: false, reason: "the signature header has no v1 signature", signed: false });
  });

  it("computes the signature over the body's chunks as they arrive, whatever their boundaries (a character split between two included)", () => {
    const text = JSON.stringify({ type: "delivered", data: { messageId: "m1", subject: "Grüße 😀" } });
    const bytes = Buffer.from(text);
    const headers = new Headers(Object.fromEntries(sign(`whsec_${B64}`, {}).entries()));
    headers.set("webhook-signature", new Webhook(`whsec_${B64}`).sign(headers.get("webhook-id")!, new Date(Number(headers.get("webhook-timestamp")) * 1000), text));
    const claim = readSignatureClaim(headers);
    if (!claim.ok) throw new Error(claim.reason);
    for (const size of [1, 3, 7, bytes.length]) {
      const check = new SignatureCheck(signingKeys(`whsec_${B64}`), claim.claim);
      for (let at = 0; at < bytes.length; at += size) check.update(bytes.subarray(at, at + size));
      expect(check.matches(), `chunks of ${size}`).toBe(true);
    }
    const wrong = new SignatureCheck(signingKeys(`whsec_${B64}`), claim.claim);
    wrong.update(bytes.subarray(1));
    expect(wrong.matches()).toBe(false);
  });

  it("a whsec_ secret stands for its base64 bytes only, not its text", () => {
    expect(signingKeys(`whsec_${B64}`)).toEqual([Buffer.from(RAW_KEY)]);
    expect(signingKeys(B64)).toEqual([Buffer.from(RAW_KEY), Buffer.from(B64)]);
    expect(signingKeys("not base64!")).toEqual([Buffer.from("not base64!")]);
  });
});
