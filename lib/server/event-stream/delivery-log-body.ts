import "server-only";
import { scrubLogText } from "@/contract/log/scrub";
import { redact } from "@/lib/server/audit";
import type { Redactor } from "@/lib/server/redaction/redactor";
import { DELIVERY_LOG } from "@/lib/schemas/webhook-deliveries";

/**
 * A delivery's body as the delivery log keeps it (./delivery-log.ts): the project's erased
 * addresses taken out first (lib/server/redaction/redactor.ts, escaped forms included), then
 * every other address's local part masked and secrets removed as the log and the audit log do
 * (contract/log/scrub.ts: `***@domain`, URL credentials; lib/server/audit.ts: fields named like
 * a secret dropped), and only then cut to DELIVERY_LOG.bodyChars — so a cut never leaves half
 * an address unmasked. The ingest holds at most HELD_BYTES of a body for this: a little more
 * than is kept, so an address across the cut is whole when it is masked.
 */
export const HELD_BYTES = DELIVERY_LOG.bodyChars + 1024;

export type KeptBody = { body: string; cut: boolean };

/** `held`: the body's first HELD_BYTES at most; `bytes`: the whole body's size. */
export function keptBody(held: Uint8Array, bytes: number, erased: Redactor): KeptBody {
  // As the ingest reads it: UTF-8, malformed bytes replaced; a NUL (refused by Postgres text) too.
  let text = new TextDecoder().decode(held).replaceAll("\u0000", "\ufffd");
  text = erased.text(text);
  let json: unknown = undefined;
  if (held.length === bytes) {
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON: scrubbed as text.
    }
  }
  const scrubbed = json === undefined ? scrubLogText(text) : JSON.stringify(maskStrings(redact(json)));
  const cut = held.length < bytes || scrubbed.length > DELIVERY_LOG.bodyChars;
  return { body: cut ? cutAt(scrubbed, DELIVERY_LOG.bodyChars) : scrubbed, cut };
}

/** Every string of a JSON value, keys included, through the log's scrub. */
function maskStrings(v: unknown): unknown {
  if (typeof v === "string") return scrubLogText(v);
  if (Array.isArray(v)) return v.map(maskStrings);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubLogText(k), maskStrings(x)]));
  return v;
}

/** The first `n` UTF-16 units, never half a surrogate pair (Postgres refuses a lone one in jsonb, and it shows as garbage). */
function cutAt(s: string, n: number): string {
  const end = n > 0 && /[\ud800-\udbff]/.test(s[n - 1] ?? "") ? n - 1 : n;
  return s.slice(0, end);
}
