import { isValid, parseISO, sub } from "date-fns";
import { STATUS_AFTER_EVENT } from "@/contract/message-status";
import { canonicalEventType, canonicalStatus, isKnownEventType, isKnownStatus, type MessageStatus } from "@/lib/messages/vocabulary";

/**
 * The values of field terms, each read one way, returning null when the value is not one. No
 * regex here runs on more than a short, anchored, non-nested pattern.
 */

/** Events that imply a status by themselves only for the dashboard's fold (lib/server/message-index/fold.ts). */
const STATUS_OF_EVENT_WORD: Readonly<Record<string, MessageStatus>> = { open: "delivered", click: "delivered", delivery_delayed: "delayed" };

/** A status word (`bounced`, `delivery`, `Delivered`) or an interface event word (`bounce`, `open`). */
export function statusOf(word: string): MessageStatus | null {
  if (isKnownStatus(word)) return canonicalStatus(word) as MessageStatus;
  if (!isKnownEventType(word)) return null;
  const event = canonicalEventType(word);
  return (STATUS_AFTER_EVENT as Record<string, MessageStatus | undefined>)[event] ?? STATUS_OF_EVENT_WORD[event] ?? null;
}

export function directionOf(word: string): "inbound" | "outbound" | null {
  const w = word.toLowerCase();
  if (w === "inbound" || w === "in" || w === "received") return "inbound";
  if (w === "outbound" || w === "out" || w === "sent") return "outbound";
  return null;
}

const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;
/** `name` or `name=value` (the older `name:value` too), the characters a tag may have. */
export function tagOf(text: string): { name: string; value: string | null } | null {
  const at = text.search(/[=:]/);
  const name = at < 0 ? text : text.slice(0, at);
  const value = at < 0 ? null : text.slice(at + 1);
  if (!TAG_PART.test(name)) return null;
  if (value !== null && value !== "" && !TAG_PART.test(value)) return null;
  return { name, value: value === "" ? null : value };
}

const UNITS: Record<string, keyof Duration> = { m: "minutes", h: "hours", d: "days", w: "weeks" };
type Duration = { minutes?: number; hours?: number; days?: number; weeks?: number };
const RELATIVE = /^(\d{1,5})([mhdw])$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A moment: an age before `now` (`30m`, `2h`, `7d`, `4w`), a day (`2026-11-01`, its start in
 * UTC) or a date-time (`2026-11-01T09:30`, UTC unless it names its zone). ISO, or null.
 */
export function momentOf(text: string, now: Date): string | null {
  const relative = RELATIVE.exec(text.toLowerCase());
  if (relative) {
    const at = sub(now, { [UNITS[relative[2]!]!]: Number(relative[1]) });
    return isValid(at) ? at.toISOString() : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || text.length > 40) return null;
  const iso = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : HAS_ZONE.test(text) ? text : `${text}Z`;
  const at = parseISO(iso);
  return isValid(at) ? at.toISOString() : null;
}
