/**
 * What an error answer of the service says, whatever its layout. The interface leaves the
 * body of top-level errors open ("not shown"), so every common layout is read:
 *
 * - `{error: {message, code, param}}` (ours, Stripe-like), `{message, code}`, `{error: "text"}`;
 * - `{errors: [{field, detail}]}`, `{errors: {field: ["msg"]}}` (Rails), JSON:API
 *   `{errors: [{detail, source: {pointer}}]}`;
 * - RFC 7807/9457 problem+json `{title, detail, invalid-params: [{name, reason}]}` or `errors`;
 * - FastAPI/pydantic `{detail: [{loc: ["body", "to", 0, "email"], msg}]}`;
 * - a bare array of any of those items; plain text or HTML (a proxy's error page).
 *
 * The field at fault (`param`) is normalised to the dashboard's own names: JSON pointers,
 * `a[0].b` and `loc` arrays become `a.0.b` (the form of a zod issue path), a leading
 * `body`/`query` is dropped and snake_case becomes camelCase (`reply_to` → `replyTo`).
 */
export type ErrorSummary = { message: string | null; code: string | null; param: string | null };

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** Field names that name the input at fault, most plausible first. */
const PARAM_KEYS = ["param", "field", "path", "pointer", "loc", "location", "parameter", "attribute", "property", "key", "name"];
const MESSAGE_KEYS = ["message", "detail", "details", "description", "reason", "msg", "error_description", "title", "error"];
const CODE_KEYS = ["code", "type", "error_code", "errorCode", "reason_code", "status_code"];
/** Where lists of field errors live. */
const LIST_KEYS = ["errors", "invalid-params", "invalid_params", "invalidParams", "violations", "issues", "details", "detail", "fields"];
/** Path segments that say where in the request, not which field. */
const LOCATION_PREFIXES = new Set(["body", "query", "path", "params", "header", "headers", "data", "request", "#"]);

const snakeToCamel = (s: string) => (/^[a-z0-9]+(_[a-z0-9]+)+$/.test(s) ? s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : s);

/** `/to/0/email`, `to[0].email`, `body.to.0.email`, `["body","to",0,"email"]`, `reply_to` → the dashboard's field path. */
export function fieldPath(raw: unknown): string | null {
  let parts: string[];
  if (Array.isArray(raw)) {
    parts = raw.filter((p) => typeof p === "string" || typeof p === "number").map(String);
  } else if (typeof raw === "string" && raw.trim()) {
    const value = raw.trim();
    if (value.length > 200 || /\s/.test(value)) return null;
    const pointer = value.startsWith("/") || value.startsWith("#/");
    parts = pointer
      ? value.replace(/^#?\//, "").split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
      : value.replace(/\[(\w*)\]/g, ".$1").split(".");
  } else {
    return null;
  }
  parts = parts.map((p) => p.trim()).filter(Boolean);
  while (parts.length > 1 && LOCATION_PREFIXES.has(parts[0].toLowerCase())) parts.shift();
  if (parts.length === 0 || (parts.length === 1 && LOCATION_PREFIXES.has(parts[0].toLowerCase()))) return null;
  return parts.map(snakeToCamel).join(".");
}

function first(obj: Rec, keys: string[], read: (v: unknown) => string | null): string | null {
  for (const key of keys) {
    const found = read(obj[key]);
    if (found) return found;
  }
  return null;
}

/** A code is a short token (`validation_error`, `E_NOT_FOUND`), never a URL (problem+json `type`) or a number. */
const codeText = (v: unknown): string | null => {
  const value = text(v);
  return value && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(value) ? value : null;
};

/** `name` names the field only in an entry of a list (`invalid-params`); at the top it is the error's class. */
function paramOf(obj: Rec, inList: boolean): string | null {
  for (const key of PARAM_KEYS) {
    if (key === "name" && !inList) continue;
    const value = obj[key];
    const path = isRec(value) ? fieldPath(value.pointer ?? value.parameter ?? value.path) : fieldPath(value);
    if (path) return path;
  }
  return isRec(obj.source) ? fieldPath(obj.source.pointer ?? obj.source.parameter ?? obj.source.path) : null;
}

/** One entry of an error list: `{field, detail}`, `{loc, msg}`, `{name, reason}`, `{source: {pointer}, detail}` or text. */
function fromItem(item: unknown): ErrorSummary | null {
  if (typeof item === "string") return text(item) ? { message: text(item), code: null, param: null } : null;
  if (!isRec(item)) return null;
  const message = first(item, MESSAGE_KEYS, text);
  const param = paramOf(item, true);
  if (!message && !param) return null;
  return { message, code: first(item, CODE_KEYS, codeText), param };
}

/** `{errors: {to: ["is invalid"]}}`: a map of field → message(s). */
function fromFieldMap(map: Rec): ErrorSummary | null {
  for (const [key, value] of Object.entries(map)) {
    const messages = (Array.isArray(value) ? value : [value]).map(text).filter((m): m is string => Boolean(m));
    if (messages.length) return { message: messages[0], code: null, param: fieldPath(key) };
  }
  return null;
}

function fromList(value: unknown): ErrorSummary | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = fromItem(item);
      if (found) return found;
    }
    return null;
  }
  if (isRec(value) && !MESSAGE_KEYS.some((k) => k in value)) return fromFieldMap(value);
  return null;
}

function fromObject(body: Rec): ErrorSummary {
  const inner = isRec(body.error) ? body.error : body;
  const levels = inner === body ? [body] : [inner, body];
  let message: string | null = null;
  let code: string | null = null;
  let param: string | null = null;
  for (const level of levels) {
    message ??= first(level, MESSAGE_KEYS, text);
    code ??= first(level, CODE_KEYS, codeText);
    param ??= paramOf(level, false);
  }
  // Field-level details: the first entry names the field, and at that field its own text
  // ("must be an email") says more than the summary ("Validation failed").
  const entry = levels.flatMap((level) => LIST_KEYS.map((key) => level[key])).map(fromList).find(Boolean) ?? null;
  if (entry?.param && (param === null || param === entry.param)) {
    param = entry.param;
    message = entry.message ?? message;
  } else if (entry) {
    message ??= entry.message;
  }
  code ??= entry?.code ?? null;
  return { message, code, param };
}

/** Text that is a person-readable sentence, not a page or a stack trace. */
function plainText(raw: string): string | null {
  const value = raw.trim();
  if (!value || value.length > 300 || value.includes("\n")) return null;
  if (/^<|<\/?[a-z][\s\S]*>/i.test(value)) return null;
  return value;
}

/** The message, code and field of an error answer; nulls for what it does not say. */
export function summarizeErrorBody(json: unknown, raw = ""): ErrorSummary {
  if (Array.isArray(json)) return fromList(json) ?? { message: null, code: null, param: null };
  if (isRec(json)) return fromObject(json);
  if (typeof json === "string") return { message: plainText(json), code: null, param: null };
  return { message: json === undefined ? plainText(raw) : null, code: null, param: null };
}
