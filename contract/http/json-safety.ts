/**
 * Checks on parsed JSON that no schema makes and that the database or JSON.stringify would
 * otherwise turn into a 500: a NUL character (Postgres text and jsonb refuse it) in any
 * string or key, and nesting deep enough to overflow a recursive walk. Shared by the
 * dashboard's parseBody and the local service; no server-only import.
 */

/** Deeper than any shape of the interface (merge data and metadata included). */
export const MAX_JSON_DEPTH = 32;

export type JsonProblem = { param: string | null; message: string };

/** `to.0.email`, as the zod errors name fields. */
const join = (path: (string | number)[]) => (path.length ? path.map((p) => (p === "" ? '""' : String(p))).join(".") : null);

/** A field name fit for a message: control characters shown as escapes. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function hasControlNul(text: string): boolean {
  return text.includes("\u0000");
}

/** A lone UTF-16 surrogate ("\ud800") cannot be encoded as UTF-8: in a URL or a header it throws. */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** The first problem of a parsed JSON value, naming the field; null when there is none. */
export function findJsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonProblem | null {
  const walk = (v: unknown, path: (string | number)[], depth: number): JsonProblem | null => {
    if (typeof v === "string") {
      const param = join(path);
      const prefix = param ? `${printable(param)}: ` : "";
      if (hasControlNul(v)) return { param, message: `${prefix}must not contain a NUL character (\\u0000)` };
      if (!isWellFormed(v)) return { param, message: `${prefix}must be valid Unicode text (it holds a lone surrogate)` };
      return null;
    }
    if (typeof v !== "object" || v === null) return null;
    if (depth >= maxDepth) {
      const param = join(path);
      return { param, message: `${param ? `${printable(param)}: ` : "body: "}is nested more than ${maxDepth} levels deep` };
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], [...path, i], depth + 1);
        if (found) return found;
      }
      return null;
    }
    for (const [key, child] of Object.entries(v)) {
      if (hasControlNul(key) || !isWellFormed(key)) {
        const param = join([...path, key]);
        return { param: printable(param ?? key), message: `${printable(param ?? key)}: a field name must not contain a NUL character (\\u0000)` };
      }
      const found = walk(child, [...path, key], depth + 1);
      if (found) return found;
    }
    return null;
  };
  return walk(value, [], 0);
}

/**
 * JSON.parse that reports why it failed. Besides syntax errors, a very deep document can
 * exhaust the stack (RangeError); both are the client's fault.
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof RangeError) return { ok: false };
    throw e;
  }
}
