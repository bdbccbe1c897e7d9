import { isKnownEventType } from "@/lib/messages/vocabulary";

/**
 * Finding the message id in a payload of the service whose shape the interface leaves open: an
 * event delivery (lib/server/message-index/payload.ts) or the simulate answer.
 *
 * Where the message id is looked for, in this order (names are compared without case, `_`
 * or `-`, so `messageId`, `message_id` and `MessageID` are one name):
 *
 *   containers, in order: `data`, `data.object`, `payload`, `object`, then the top level;
 *   in each container, in order:
 *     1. `messageId`          (message_id, MessageID…)
 *     2. `emailId`            (email_id…)
 *     3. `mailId`             (mail_id…)
 *     4. `email.id`
 *     5. `message.id`
 *     6. `id` — only when the container is about one message: the event word is one of the
 *        interface's message events (section 6, in any spelling the vocabulary knows), or the
 *        container itself carries `from`, `to`, `subject` or `recipient(s)`; and at the top
 *        level only when none of the containers above exists (otherwise a top-level `id`
 *        names the event or the delivery, not the message).
 *
 * A value is an id when it is a non-empty string of at most 256 characters, or a number.
 * The same order serves the simulate answer (lib/server/messages/simulate.ts).
 */
export const MESSAGE_ID_CONTAINERS = ["data", "data.object", "payload", "object", ""] as const;
const ID_FIELDS = ["messageid", "emailid", "mailid"];
const NESTED_ID_FIELDS = ["email", "message"];
const MESSAGE_FIELDS = ["from", "to", "subject", "recipient", "recipients"];

export type Json = Record<string, unknown>;

export const squash = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, "");
export const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value of the field whose squashed name is `name`, if any. */
export function field(obj: Json, name: string): unknown {
  for (const key of Object.keys(obj)) if (squash(key) === name) return obj[key];
  return undefined;
}

function asId(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v !== "string") return null;
  const s = v.trim();
  return s.length > 0 && s.length <= 256 ? s : null;
}

export function container(root: Json, path: string): Json | null {
  if (path === "") return root;
  let at: unknown = root;
  for (const part of path.split(".")) {
    if (!isRecord(at)) return null;
    at = field(at, part);
  }
  return isRecord(at) ? at : null;
}

function aboutOneMessage(obj: Json, eventWord: string | null): boolean {
  if (eventWord && isKnownEventType(eventWord)) return true;
  return MESSAGE_FIELDS.some((name) => field(obj, name) !== undefined);
}

/** The message id by the documented order, and where it was found (for tests and reasons). */
export function findMessageId(root: unknown, eventWord: string | null = null): { id: string; at: string } | null {
  if (!isRecord(root)) return null;
  const hasContainer = MESSAGE_ID_CONTAINERS.some((p) => p !== "" && container(root, p) !== null);
  for (const path of MESSAGE_ID_CONTAINERS) {
    const obj = container(root, path);
    if (!obj) continue;
    const prefix = path ? `${path}.` : "";
    for (const name of ID_FIELDS) {
      const id = asId(field(obj, name));
      if (id) return { id, at: `${prefix}${name}` };
    }
    for (const name of NESTED_ID_FIELDS) {
      const nested = field(obj, name);
      const id = isRecord(nested) ? asId(field(nested, "id")) : null;
      if (id) return { id, at: `${prefix}${name}.id` };
    }
    if (path === "" && hasContainer) continue;
    if (aboutOneMessage(obj, eventWord)) {
      const id = asId(field(obj, "id"));
      if (id) return { id, at: `${prefix}id` };
    }
  }
  return null;
}
