import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { DnsRecordRow } from "../db/schema";

/**
 * The hosts of this service that customers' DNS records point at. The local service has
 * no public mail hosts, so these are fixed names: a real deployment would publish them.
 */
export const SERVICE_SPF_HOST = "spf.mailservice.localhost";
export const SERVICE_BOUNCE_HOST = "feedback.mailservice.localhost";
export const SERVICE_INBOUND_HOST = "inbound.mailservice.localhost";
/** Envelope-sender (return-path) subdomain, where bounces come back. */
export const RETURN_PATH_LABEL = "bounces";
export const DKIM_KEY_BITS = 2048;

/** Records a domain needs for sending; DMARC is recommended, not required (see README). */
export const REQUIRED_PURPOSES = ["dkim", "spf", "return_path"] as const;

const generateKeyPairAsync = promisify(generateKeyPair);

/** A selector of its own per domain, so two projects (or a key rotation) never collide on one name. */
function newSelector() {
  return `svc${randomBytes(5).toString("hex")}`;
}

/** The DKIM record's value: the public key as DER, base64 (RFC 6376 `p=`). */
export function dkimValue(publicKeyDer: Buffer) {
  return `v=DKIM1; k=rsa; p=${publicKeyDer.toString("base64")}`;
}

/**
 * The records to publish for a new sending domain, and the DKIM private key that signs
 * its mail. The key pair is made off the event loop: 2048-bit RSA takes ~100 ms.
 */
export async function sendingRecords(domain: string): Promise<{ records: DnsRecordRow[]; dkimPrivateKey: string; selector: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync("rsa", {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const selector = newSelector();
  const returnPath = `${RETURN_PATH_LABEL}.${domain}`;
  const records: DnsRecordRow[] = [
    { type: "TXT", name: `${selector}._domainkey.${domain}`, value: dkimValue(publicKey), priority: null, purpose: "dkim", verified: false },
    { type: "TXT", name: returnPath, value: `v=spf1 include:${SERVICE_SPF_HOST} ~all`, priority: null, purpose: "spf", verified: false },
    // MX, not CNAME: the SPF TXT lives on the same name, and a CNAME may not share a name with other records.
    { type: "MX", name: returnPath, value: SERVICE_BOUNCE_HOST, priority: 10, purpose: "return_path", verified: false },
    { type: "TXT", name: `_dmarc.${domain}`, value: "v=DMARC1; p=none;", priority: null, purpose: "dmarc", verified: false },
  ];
  return { records, dkimPrivateKey: privateKey, selector };
}

/** MX record(s) that route the domain's inbound mail to the service. */
export function receivingRecords(domain: string): DnsRecordRow[] {
  return [{ type: "MX", name: domain, value: SERVICE_INBOUND_HOST, priority: 10, purpose: "receiving", verified: false }];
}

/** Reserved names (RFC 2606/6761) that verify by themselves in sandbox mode, so a demo works offline. */
export function isSandboxDomain(domain: string): boolean {
  return domain.endsWith(".test") || domain.endsWith(".example") || domain === "example.com" || domain.endsWith(".example.com");
}

export function allRequiredVerified(records: DnsRecordRow[]): boolean {
  return REQUIRED_PURPOSES.every((purpose) => records.filter((r) => r.purpose === purpose).every((r) => r.verified));
}
