import { canonicalEventType } from "./vocabulary";

/**
 * One element of a message's `events`, of any shape, read into what the timeline, the index
 * and the engagement counts need. The interface says "Fields of an event element: not shown",
 * so nothing is assumed: the type comes from the most plausible field, the time from any
 * date-time field, and every other field is kept as a detail (a bounce's reason text, the
 * link of a click) rather than dropped.
 */
export type NormalizedEvent = {
  /** The interface's event type (`delivery`, `bounce`…), or the service's own word, cleaned. */
  type: string;
  /** The word as the service wrote it, when it differs from `type`. */
  rawType: string | null;
  /** ISO 8601, when any field carried a time. */
  createdAt?: string;
  /** Everything else the element carried, nested `data`/`details` objects flattened one level in. */
  data: Record<string, unknown>;
};

/** Field names (compared without case, `_` or `-`) that name the event, most plausible first. */
export const EVENT_TYPE_FIELDS = ["type", "event", "eventtype", "eventname", "name", "kind", "action", "status", "state"];
/** Field names that carry the event's time, most plausible first; any other date-like field is the fallback. */
export const EVENT_TIME_FIELDS = [
  "createdat", "occurredat", "timestamp", "at", "time", "date", "datetime", "eventtime", "eventdate", "receivedat",
  "processedat", "deliveredat", "sentat", "updatedat", "created", "occurred", "ts",
];
/** Nested objects whose fields are the event's details. */
const DETAIL_CONTAINERS = ["data", "details", "detail", "payload", "attributes", "properties", "meta", "metadata"];

const squash = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, "");

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const RFC_LIKE = /^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}/;

/** An ISO string for a value that is a date-time: ISO or RFC 2822 text, or epoch seconds/milliseconds. */
export function toIsoTime(value: unknown, allowNumbers = true): string | undefined {
  if (typeof value === "string") {
    const v = value.trim();
    if (!ISO_LIKE.test(v) && !RFC_LIKE.test(v)) {
      if (allowNumbers && /^\d{10}(\d{3})?(\.\d+)?$/.test(v)) return toIsoTime(Number(v));
      return undefined;
    }
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : new Date(t).toISOString();
  }
  if (allowNumbers && typeof value === "number" && Number.isFinite(value) && value > 0) {
    // Seconds until the year 2286; anything larger is milliseconds.
    const ms = value < 1e10 ? value * 1000 : value;
    const d = new Date(ms);
    return d.getFullYear() > 1990 && d.getFullYear() < 2300 ? d.toISOString() : undefined;
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The first field, in `order`, present in `obj` (names compared without case and separators). */
function pick(obj: Record<string, unknown>, order: string[], accept: (v: unknown) => boolean, byName = namesOf(obj)): { key: string; value: unknown } | null {
  for (const name of order) {
    const key = byName.get(name);
    if (key !== undefined && accept(obj[key])) return { key, value: obj[key] };
  }
  return null;
}

/** The fields of `obj` by their squashed names, the first of each name kept: made once per object an element is read from. */
function namesOf(obj: Record<string, unknown>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const key of Object.keys(obj)) {
    const name = squash(key);
    if (!byName.has(name)) byName.set(name, key);
  }
  return byName;
}

const isWord = (v: unknown) => typeof v === "string" && v.trim().length > 0 && v.length <= 100;

export function normalizeEvent(raw: unknown): NormalizedEvent {
  if (typeof raw === "string") return { type: canonicalEventType(raw), rawType: raw === canonicalEventType(raw) ? null : raw, data: {} };
  if (!isRecord(raw)) return { type: "unknown", rawType: null, data: {} };

  // Details: the top level, with nested detail containers flattened in (top level wins).
  const rawNames = namesOf(raw);
  const flat: Record<string, unknown> = {};
  const nestedKeys = new Set<string>();
  for (const container of DETAIL_CONTAINERS) {
    const found = pick(raw, [container], isRecord, rawNames);
    if (!found) continue;
    nestedKeys.add(found.key);
    for (const [k, v] of Object.entries(found.value as Record<string, unknown>)) if (!(k in flat)) flat[k] = v;
  }
  for (const [k, v] of Object.entries(raw)) if (!nestedKeys.has(k)) flat[k] = v;
  const flatNames = namesOf(flat);

  const typeField = pick(raw, EVENT_TYPE_FIELDS, isWord, rawNames) ?? pick(flat, EVENT_TYPE_FIELDS, isWord, flatNames);
  const rawType = typeField ? String(typeField.value) : null;
  const type = canonicalEventType(rawType);

  const timeField =
    pick(raw, EVENT_TIME_FIELDS, (v) => toIsoTime(v) !== undefined, rawNames) ??
    pick(flat, EVENT_TIME_FIELDS, (v) => toIsoTime(v) !== undefined, flatNames) ??
    // Any other field that holds date-time text (numbers only under a time-like name, above).
    Object.entries(flat)
      .map(([key, value]) => ({ key, value }))
      .find(({ value }) => toIsoTime(value, false) !== undefined) ??
    null;
  const createdAt = timeField ? toIsoTime(timeField.value) : undefined;

  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    if (typeField && k === typeField.key && flat[k] === typeField.value) continue;
    if (timeField && k === timeField.key && flat[k] === timeField.value) continue;
    if (v === undefined) continue;
    data[k] = v;
  }
  return { type, rawType: rawType !== null && rawType !== type ? rawType : null, ...(createdAt ? { createdAt } : {}), data };
}
