import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import { env } from "@/lib/server/env";

/**
 * An erased address as the dashboard may keep it: an HMAC-SHA-256 of the lower-cased address
 * under a key derived from AUTH_SECRET. The audit log and the erasure tombstones hold this,
 * never the address: a copy of the database alone cannot tell whose data was erased, while
 * an admin who knows an address can find its erasure (the audit search hashes an address it
 * is given, lib/server/audit.ts). Instances that share a database share AUTH_SECRET, so they
 * agree on it; a new AUTH_SECRET makes earlier hashes unrecognisable.
 */
const INFO = "mail-dashboard/erased-address/v1";
const PREFIX = "erased:";

function key(secret = env().AUTH_SECRET): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "erasure", INFO, 32));
}

/** `erased:<40 hex>`; 160 bits are plenty to tell addresses apart and keep the log readable. */
export function addressHash(address: string, secret?: string): string {
  const mac = createHmac("sha256", key(secret)).update(address.trim().toLowerCase()).digest("hex");
  return `${PREFIX}${mac.slice(0, 40)}`;
}
