import type { MessageEvent } from "@/lib/schemas/events";

/**
 * What the timeline says about one event, whatever the service put in it: the interface does
 * not show an event element's fields, so every field is a detail — known ones under a friendly
 * label, the rest under their own name made readable, nested values spelled out — and only
 * http(s) values become links.
 */
export type ViewEvent = MessageEvent & { rawType?: string | null };
export type EventDetail = { label: string; value: string; href: string | null };

const EVENT_LABELS: Record<string, string> = {
  accepted: "Accepted",
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  delivery: "Delivered",
  bounce: "Bounced",
  complaint: "Marked as spam",
  open: "Opened",
  click: "Link clicked",
  delivery_delayed: "Delivery delayed",
  rejected: "Rejected",
  rendering_failure: "Template could not be rendered",
  failed: "Failed",
  inbound_received: "Received",
  inbound_rejected: "Inbound mail rejected",
};

/** Keys compared without case or separators, in the order they are shown. */
const KNOWN: [string[], string][] = [
  [["diagnostic", "diagnosticcode", "smtpresponse", "response", "serverresponse", "deliverymessage"], "Server said"],
  [["reason", "bouncereason", "failurereason", "rejectreason", "rejectionreason", "dropreason"], "Reason"],
  [["cause"], "Cause"],
  [["description", "message", "detail", "details"], "Message"],
  [["error", "errormessage"], "Error"],
  [["bouncetype", "bouncesubtype", "bounceclassification"], "Bounce type"],
  [["link", "url", "clickedurl", "clickedlink"], "Link"],
  [["missing", "missingvariables"], "Missing variables"],
  [["suppressionreason"], "Suppressed for"],
  [["recipient", "email", "to"], "Recipient"],
  [["feedbacktype", "complainttype"], "Feedback"],
  [["mx", "mxhost", "remotemta", "reportingmta"], "Receiving server"],
  [["ip", "ipaddress"], "IP address"],
  [["useragent"], "Browser"],
];

const squash = (key: string) => key.toLowerCase().replace(/[_\-\s.]/g, "");

/** `bounce_reason` → "Bounce reason", `smtpCode` → "Smtp code". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/** The event's name: the dashboard's label for a known type, else the service's own word (cleaned of `email.`-like prefixes). */
export function eventLabel(event: ViewEvent): string {
  if (EVENT_LABELS[event.type]) return EVENT_LABELS[event.type];
  return humanizeKey(event.type && event.type !== "unknown" ? event.type : event.rawType || "event");
}

/** The service's own word, when it says more than the label (not just another case of the type). */
export function rawWordShown(event: ViewEvent): string | null {
  const raw = event.rawType?.trim();
  if (!raw) return null;
  const plain = raw.toLowerCase().replace(/[\s.\-]+/g, "_");
  return plain === event.type || raw === eventLabel(event) ? null : raw;
}

function httpLink(value: string): string | null {
  if (!/^https?:\/\//i.test(value.trim())) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const scalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** A nested value in one line: `code: 550, status: 5.1.1`. */
function inline(value: unknown, depth = 0): string {
  if (scalar(value)) return String(value);
  if (value === null || value === undefined) return "";
  if (depth > 2) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => inline(v, depth + 1)).filter(Boolean).join(isRecord(value[0]) ? "; " : ", ");
  if (isRecord(value)) {
    return Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => `${humanizeKey(k).toLowerCase()}: ${inline(v, depth + 1)}`)
      .join(", ");
  }
  return String(value);
}

function details(key: string, label: string, value: unknown, depth: number): EventDetail[] {
  if (value === null || value === undefined || value === "") return [];
  // One level of nesting becomes rows of their own ("Smtp code", "Smtp message"); deeper is inlined.
  if (isRecord(value) && depth === 0) {
    return Object.entries(value).flatMap(([k, v]) => details(k, `${label} ${humanizeKey(k).toLowerCase()}`, v, depth + 1));
  }
  const text = inline(value);
  if (!text) return [];
  return [{ label, value: text, href: typeof value === "string" ? httpLink(value) : null }];
}

export function eventDetails(event: ViewEvent): EventDetail[] {
  const data = event.data ?? {};
  const keys = Object.keys(data);
  const rank = (key: string) => {
    const i = KNOWN.findIndex(([names]) => names.includes(squash(key)));
    return i === -1 ? KNOWN.length : i;
  };
  // Known keys first in the order above, the rest as the service sent them.
  const ordered = keys.map((key, i) => ({ key, i, r: rank(key) })).sort((a, b) => a.r - b.r || a.i - b.i);
  return ordered.flatMap(({ key, r }) => details(key, r < KNOWN.length ? KNOWN[r][1] : humanizeKey(key), data[key], 0));
}

/** Keys that carry a reason, most telling first; any other key naming one is the fallback. */
const REASON_KEYS = ["diagnostic", "diagnosticcode", "smtpresponse", "reason", "bouncereason", "failurereason", "rejectreason", "error", "errormessage", "message", "description", "detail", "cause", "response"];
const REASON_LIKE = /reason|diagnos|error|response|message|description|detail|cause/i;

/** The reason an event carries, whatever the service calls it (nested one level too). */
export function eventReason(event: ViewEvent | undefined): string | null {
  const data = event?.data ?? {};
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
  const flat: [string, unknown][] = Object.entries(data).flatMap(([k, v]) => (isRecord(v) ? [[k, v] as [string, unknown], ...Object.entries(v)] : [[k, v] as [string, unknown]]));
  for (const name of REASON_KEYS) {
    const hit = flat.find(([k, v]) => squash(k) === name && text(v));
    if (hit) return text(hit[1]);
  }
  const loose = flat.find(([k, v]) => REASON_LIKE.test(k) && text(v));
  return loose ? text(loose[1]) : null;
}
