import { MAX_ATTACHMENTS_BYTES, MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import type { Finding, PresendDraftParsed } from "@/lib/schemas/presend";
import { finding, formatKB } from "./finding";
import type { HtmlSource } from "./source";

/** Gmail shows "[Message clipped] View entire message" past this many bytes of html. */
export const GMAIL_CLIP_BYTES = 102 * 1024;
/** Above this, merge data or a provider's link tracking can push the html over the clip. */
export const GMAIL_CLIP_NEAR_BYTES = 90 * 1024;

const encoder = new TextEncoder();
export const utf8Bytes = (s: string | undefined) => (s ? encoder.encode(s).length : 0);

/** The UTF-16 offset of the first character that ends past `limit` bytes of UTF-8, or -1. */
export function offsetAtByte(s: string, limit: number): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > limit) return c >= 0xd800 && c <= 0xdbff ? i - 1 : i;
  }
  return -1;
}

const base64Bytes = (n: number) => Math.ceil(n / 3) * 4;

export function measure(draft: PresendDraftParsed) {
  const htmlBytes = utf8Bytes(draft.html);
  const textBytes = utf8Bytes(draft.text);
  const attachmentsBytes = draft.attachments.reduce((sum, a) => sum + a.size, 0);
  // The JSON send request: the text parts (escaping ignored), headers, and base64 attachments.
  const requestBytes =
    htmlBytes + textBytes + utf8Bytes(draft.subject) +
    Object.entries(draft.headers).reduce((sum, [k, v]) => sum + utf8Bytes(k) + utf8Bytes(v) + 6, 0) +
    draft.attachments.reduce((sum, a) => sum + base64Bytes(a.size) + utf8Bytes(a.filename) + 64, 0) + 512;
  return { htmlBytes, textBytes, attachmentsBytes, requestBytes };
}

export function checkSize(draft: PresendDraftParsed, source: HtmlSource | null, sizes = measure(draft)): Finding[] {
  const out: Finding[] = [];
  if (source && sizes.htmlBytes > GMAIL_CLIP_BYTES) {
    const place = source.placeAt(offsetAtByte(source.html, GMAIL_CLIP_BYTES));
    out.push(
      finding("size", "gmail-clip", "warning", `The html is ${formatKB(sizes.htmlBytes)}: Gmail clips messages over 102 KB, hiding everything from line ${place.line}, column ${place.column} on (including any unsubscribe link and open tracking there) behind "View entire message".`, { place }),
    );
  } else if (source && sizes.htmlBytes > GMAIL_CLIP_NEAR_BYTES) {
    out.push(finding("size", "gmail-clip-near", "info", `The html is ${formatKB(sizes.htmlBytes)}, close to Gmail's 102 KB clip; merge data or link tracking can push it over.`));
  }
  if (sizes.attachmentsBytes > MAX_ATTACHMENTS_BYTES) {
    out.push(
      finding("size", "attachments-limit", "error", `The attachments total ${formatKB(sizes.attachmentsBytes)}, over the ${formatKB(MAX_ATTACHMENTS_BYTES)} the service accepts for one message; it will be refused.`),
    );
  }
  if (sizes.requestBytes > MAX_REQUEST_BYTES) {
    out.push(
      finding("size", "message-limit", "error", `With its attachments encoded the message is about ${formatKB(sizes.requestBytes)}, over the ${formatKB(MAX_REQUEST_BYTES)} limit of one send request; it will be refused.`),
    );
  }
  return out;
}
