import { MAX_JSON_DEPTH } from "@/contract/http/json-safety";
import { normalizeEvent, toIsoTime } from "@/lib/messages/event-element";
import { canonicalEventType } from "@/lib/messages/vocabulary";
import { MAX_RECIPIENTS } from "@/lib/schemas/limits";
import { container, field, findMessageId, isRecord, MESSAGE_ID_CONTAINERS, squash, type Json } from "@/lib/server/service/readers/message-id";

/**
 * Reading one delivery of the event stream, whatever its shape. The interface leaves the
 * payload "not shown", so the delivery is only a notification: the message id is what
 * matters (the message is then read back from the service, and that answer is the truth);
 * the type, time, addresses and subject are a first, provisional picture. The id is found as
 * the service readers find it (lib/server/service/readers/message-id.ts).
 */

/** What a delivery says about one message: the id, and a provisional picture of the rest. */
export type DeliveredEvent = {
  messageId: string;
  /** The interface's event type (canonical), or the service's word, cleaned. */
  type: string;
  occurredAt: Date | null;
  direction: "inbound" | "outbound" | null;
  from: string | null;
  to: string[] | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  /** Everything else the event carried: a bounce's reason, a click's link. */
  details: Json;
};

export type ReadResult = { ok: true; event: DeliveredEvent } | { ok: false; reason: string };

/** Fields that describe the message rather than the event, left out of the details. */
const MESSAGE_LEVEL = new Set(["project", "direction", "from", "to", "subject", "text", "html", "cc", "bcc", "status", "messageid", "emailid", "mailid", "email", "message", "id"]);
/** Nested objects that hold the event's own details (`eventData` is the local service's). */
const EVENT_DETAIL = new Set(["eventdata", "event", "details", "detail"]);

function addressOf(v: unknown): string | null {
  let address: string | null = null;
  if (typeof v === "string" && v.trim()) address = v.trim();
  else if (isRecord(v)) {
    const email = field(v, "email") ?? field(v, "address");
    const name = field(v, "name");
    if (typeof email === "string" && email.trim()) address = typeof name === "string" && name.trim() ? `${name.trim()} <${email.trim()}>` : email.trim();
  }
  return address !== null && address.length <= MAX_ADDRESS_CHARS ? address : null;
}

/** The recipients, at most MAX_RECIPIENTS of them (the provisional picture; the re-read brings them all). */
function addressesOf(v: unknown): string[] | null {
  if (v === undefined || v === null) return null;
  const list = (Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [v]).map(addressOf).filter((a): a is string => a !== null).slice(0, MAX_RECIPIENTS);
  return list.length ? list : null;
}

const text = (v: unknown) => (typeof v === "string" ? v : null);

/** Text the database stores as it is: a NUL (refused by Postgres text and jsonb) and lone surrogates (refused by jsonb) become U+FFFD. */
function storableText(s: string): string {
  const t = s.includes("\u0000") ? s.replaceAll("\u0000", "\ufffd") : s;
  return (t as string & { isWellFormed(): boolean }).isWellFormed() ? t : (t as string & { toWellFormed(): string }).toWellFormed();
}

/** What stands for an object or list nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP = "[nested too deep]";

/**
 * A parsed delivery made storable, so that a verified delivery is recorded rather than
 * answered 500 (which the service would retry for ever): every string and key through
 * `storableText`, and objects or lists deeper than MAX_JSON_DEPTH replaced with TOO_DEEP
 * (writing them out, JSON.stringify and Postgres's jsonb recurse, and can run out of stack).
 * The message id is never that deep; the re-read brings the message as the service has it.
 */
export function cleanJson(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return storableText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => cleanJson(v, depth + 1));
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays a field, not the object's prototype.
    Object.defineProperty(out, storableText(key), { value: cleanJson(v, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Longest address taken from a delivery. Addresses go into a btree index, whose rows Postgres
 * caps at about 2.7 KB: a longer one would fail the whole delivery. RFC 5321 allows 254
 * characters for the address; the rest is room for a display name.
 */
const MAX_ADDRESS_CHARS = 512;
/** Longest event word taken from a field the vocabulary does not read (it caps its own at 100); the type is indexed too. */
const MAX_TYPE_CHARS = 100;

/** The first container (in the id order) that has the field, else null. */
function firstField(root: Json, names: string[]): unknown {
  for (const path of MESSAGE_ID_CONTAINERS) {
    const obj = container(root, path);
    if (!obj) continue;
    for (const name of names) {
      const v = field(obj, name);
      if (v !== undefined && v !== null) return v;
    }
  }
  return undefined;
}

/** Reads one event object (a delivery, or one element of a delivery that is an array). */
export function readEvent(raw: unknown): ReadResult {
  if (!isRecord(raw)) return { ok: false, reason: `the payload is ${Array.isArray(raw) ? "an empty list" : `a JSON ${raw === null ? "null" : typeof raw}`}, not an object` };
  const normalized = normalizeEvent(raw);
  let rawType = normalized.rawType ?? (normalized.type !== "unknown" ? normalized.type : null);
  if (!rawType) {
    const record = firstField(raw, ["recordtype", "eventtype"]);
    if (typeof record === "string" && record.length <= MAX_TYPE_CHARS) rawType = record;
  }
  const found = findMessageId(raw, rawType);
  if (!found) {
    const keys = Object.keys(raw).slice(0, 12).join(", ") || "none";
    return { ok: false, reason: `no message id in the payload (looked in data, payload, object and the top level; its fields: ${keys})` };
  }
  const type = rawType ? canonicalEventType(rawType) : "unknown";
  const time = normalized.createdAt ?? toIsoTime(firstField(raw, ["createdat", "timestamp", "occurredat", "time", "date"]));

  const dir = firstField(raw, ["direction"]);
  const direction = dir === "inbound" || dir === "outbound" ? dir : type.startsWith("inbound_") ? "inbound" : null;

  const details: Json = {};
  for (const [k, v] of Object.entries(normalized.data)) {
    const key = squash(k);
    if (EVENT_DETAIL.has(key) && isRecord(v)) Object.assign(details, v);
    else if (!MESSAGE_LEVEL.has(key) && v !== undefined) details[k] = v;
  }
  return {
    ok: true,
    event: {
      messageId: found.id,
      type,
      occurredAt: time ? new Date(time) : null,
      direction,
      from: addressOf(firstField(raw, ["from", "sender"])),
      to: addressesOf(firstField(raw, ["to", "recipients", "recipient"])),
      subject: text(firstField(raw, ["subject"])),
      text: text(firstField(raw, ["text", "textbody", "plain"])),
      html: text(firstField(raw, ["html", "htmlbody"])),
      details,
    },
  };
}
