import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software authenticator for tests: a real ES256 (P-256) key made with node's crypto, and the
 * authenticator data, client data and CBOR attestation object built by hand as a browser and an
 * authenticator would, so @simplewebauthn/server verifies them for real. `origin` and `rpId`
 * can be overridden per ceremony to play a phishing page or another site.
 */
type Ceremony = { origin?: string; rpId?: string; challenge?: string; type?: string };
const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(32));
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;

  constructor(
    private readonly origin: string,
    private readonly rpId: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private coseKey(): Uint8Array {
    const key = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(this.publicJwk.x)],
      [-3, isoBase64URL.toBuffer(this.publicJwk.y)],
    ]);
    return isoCBOR.encode(key);
  }

  private authData(rpId: string, flags: number, attested: boolean): Uint8Array {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts: Uint8Array[] = [sha256(rpId), Uint8Array.of(flags), counter];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.credentialId.length);
      parts.push(new Uint8Array(16), len, this.credentialId, this.coseKey());
    }
    return new Uint8Array(Buffer.concat(parts));
  }

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to `navigator.credentials.create()` for these options (attestation "none"). */
  register(options: { challenge: string }, c: Ceremony = {}) {
    const authData = this.authData(c.rpId ?? this.rpId, 0x01 | 0x04 | 0x40, true);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(this.clientData(c.type ?? "webauthn.create", c.challenge ?? options.challenge, c.origin ?? this.origin)),
        attestationObject: b64(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** The answer to `navigator.credentials.get()`: the counter moves on, the signature is real. */
  assert(options: { challenge: string }, c: Ceremony = {}) {
    this.counter += 1;
    const authData = this.authData(c.rpId ?? this.rpId, 0x01 | 0x04, false);
    const clientDataJSON = this.clientData(c.type ?? "webauthn.get", c.challenge ?? options.challenge, c.origin ?? this.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(new Uint8Array(signature)) },
    };
  }
}
