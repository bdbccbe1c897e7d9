import { z } from "zod";
import { EMAIL_PATTERN, NO_NUL } from "./words";

export { EMAIL_PATTERN, NO_NUL };

export const emailAddress = z
  .string({ error: "must be an email address" })
  .trim()
  .max(254, { error: "must be at most 254 characters" })
  .regex(EMAIL_PATTERN, { error: "must be an email address like name@example.com" });

export const isoDateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z" });

export const address = z.object({
  email: emailAddress,
  name: z.string().trim().max(200, { error: "must be at most 200 characters" }).optional(),
});
export type Address = z.infer<typeof address>;

export const tag = z.object({
  name: z
    .string()
    .min(1, { error: "is required" })
    .max(256)
    .regex(/^[A-Za-z0-9_-]+$/, { error: "may contain only letters, digits, underscores and dashes" }),
  value: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9_-]*$/, { error: "may contain only letters, digits, underscores and dashes" }),
});
export type Tag = z.infer<typeof tag>;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Query of every cursor-paginated list. */
export const pageQuery = z.object({
  cursor: z.string().min(1).max(500).regex(NO_NUL.pattern, { error: NO_NUL.error }).optional(),
  limit: z.coerce
    .number({ error: "must be a whole number from 1 to 100" })
    .int({ error: "must be a whole number from 1 to 100" })
    .min(1, { error: "must be a whole number from 1 to 100" })
    .max(MAX_PAGE_SIZE, { error: "must be a whole number from 1 to 100" })
    .default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}
export type Page<T> = { data: T[]; nextCursor: string | null };

/** One body shape for every error, the same fields as a failed batch item. */
export const errorDetail = z.object({
  message: z.string(),
  code: z.string(),
  param: z.string().nullable().optional(),
});
export type ErrorDetail = z.infer<typeof errorDetail>;
export const errorBody = z.object({ error: errorDetail });
export type ErrorBody = z.infer<typeof errorBody>;

export const idParam = z.object({ id: z.string().min(1).max(200) });

/** Free-form JSON object (metadata, merge data). */
export const jsonObject = z.record(z.string(), z.unknown());

