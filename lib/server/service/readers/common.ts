import { z } from "zod";
import { toIsoTime } from "@/lib/messages/event-element";
import { isoDateTime } from "@/lib/schemas/common";

/**
 * Building blocks of the readers: each accepts what a service following the interface may
 * send where the interface says "not shown" and hands the dashboard one form. A field that is
 * optional and malformed is read as absent (`lenient`), so one odd value never breaks a screen.
 * (Field readers start from `z.unknown().optional()`: zod 4 refuses a missing key unless the
 * key's schema accepts undefined as input, which a bare transform does not declare.)
 */

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An answer of which only the status counts (a delete, a probe): any body, or none. */
export const anyAnswer = z.unknown();

/** An id is opaque: any non-empty string (trimmed), or a finite number (some services use integers), as text; null otherwise. */
export function readId(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  return typeof v === "number" && Number.isFinite(v) ? String(v) : null;
}

/** readId as a schema: a value it cannot read is an issue. */
export const idReader = z.unknown().transform((v, ctx) => {
  const id = readId(v);
  if (id === null) {
    ctx.addIssue({ code: "custom", message: "expected an id: non-empty text or a number" });
    return z.NEVER;
  }
  return id;
});

/** Text that may be missing or null; numbers and booleans are written out. */
export const readNullableText = (v: unknown): string | null =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;
export const nullableText = z.unknown().optional().transform(readNullableText);

/** Required text: a string (or a number written out). */
export const text = z.union([z.string(), z.number().transform(String)]);

/** Optional text: absent, null or not text reads as undefined. */
export const optionalText = nullableText.transform((v) => v ?? undefined);

/**
 * A date-time in any common form (RFC 2822, epoch seconds or ms) as ISO 8601; ISO 8601 text
 * is kept as the service wrote it. Absent or unreadable → undefined.
 */
export const readTime = (v: unknown): string | undefined =>
  typeof v === "string" && isoDateTime.safeParse(v.trim()).success ? v.trim() : toIsoTime(v);
export const timeReader = z.unknown().optional().transform(readTime);

/** true/false, "true"/"false", 1/0; anything else undefined. */
export const boolReader = z.unknown().optional().transform((v) => {
  if (typeof v === "boolean") return v;
  if (v === 1 || v === "1" || (typeof v === "string" && /^(true|yes)$/i.test(v.trim()))) return true;
  if (v === 0 || v === "0" || (typeof v === "string" && /^(false|no)$/i.test(v.trim()))) return false;
  return undefined;
});

/** A whole number from a number or numeric text; undefined otherwise. */
export const intReader = z.unknown().optional().transform((v) => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
});

/** A free-form object; anything else reads as undefined. */
export const objectReader = z.unknown().optional().transform((v) => (isRecord(v) ? v : undefined));

/** The schema, or undefined when the value does not fit it. */
export function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/**
 * Items of a list, each read on its own: an item that cannot be read (no id, say) is left
 * out and logged for the operator rather than failing the whole list.
 */
export function listOf<T extends z.ZodType>(item: T, what: string) {
  return z.unknown().optional().transform((value): z.output<T>[] => {
    if (!Array.isArray(value)) return [];
    const out: z.output<T>[] = [];
    for (const entry of value) {
      const parsed = item.safeParse(entry);
      if (parsed.success) out.push(parsed.data);
      else console.warn(`service: left out a ${what} the dashboard cannot read: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(item)"} ${i.message}`).join("; ")}`);
    }
    return out;
  });
}

/**
 * A page of a list operation. The interface's form is `{data, nextCursor}`; a bare array is
 * read as one last page. The cursor is opaque (a number becomes text); missing, null or empty
 * means there is no next page — the only sign of one the dashboard relies on, never the count.
 */
export function pageReader<T extends z.ZodType>(item: T, what: string) {
  const items = listOf(item, what);
  return z.unknown().optional().transform((value, ctx) => {
    const body = Array.isArray(value) ? { data: value } : isRecord(value) ? value : null;
    if (!body || !Array.isArray(body.data)) {
      ctx.addIssue({ code: "custom", message: "a page needs a `data` list" });
      return z.NEVER;
    }
    const cursor = body.nextCursor ?? body.next_cursor;
    const nextCursor = typeof cursor === "string" && cursor.trim() ? cursor : typeof cursor === "number" ? String(cursor) : null;
    return { data: items.parse(body.data), nextCursor };
  });
}
