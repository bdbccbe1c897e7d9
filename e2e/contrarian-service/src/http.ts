import type { Context } from "hono";
import type { z } from "zod";
import { decodeCursor, encodeCursor } from "./ids";
import { fieldPath, invalid, notFound, TextProblem } from "./problems";
import type { Env } from "./runtime";

type Ctx = Context<Env>;

/** The JSON body; an empty body is `{}`. Content-Type is not insisted on. */
export async function readJson(c: Ctx): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new TextProblem(400, "The request body is not valid JSON.");
  }
}

/** Validates with zod; failures become one 422 naming every field (`to[0].email`). */
export function parse<T>(schema: z.ZodType<T>, value: unknown, prefix = ""): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(result.error.issues.map((issue) => ({ field: fieldPath(issue.path, prefix), message: issue.message })));
}

/**
 * The project an operation acts in. A project-scoped key implies its own (any header is
 * ignored). An account-wide key names it in X-Service-Product or X-Service-Sender on the
 * operations the interface lists the header for (`required`); elsewhere it reaches every project.
 */
export function projectOf(c: Ctx, required: true): string;
export function projectOf(c: Ctx, required: false): string | null;
export function projectOf(c: Ctx, required: boolean): string | null {
  const key = c.get("key");
  if (key.projectId) return key.projectId;
  if (!required) return null;
  const named = c.req.header("X-Service-Product") ?? c.req.header("X-Service-Sender");
  if (!named) throw invalid([{ field: "X-Service-Product", message: "names the project when the key is account-wide" }]);
  if (!c.get("rt").store.projects.includes(named)) throw invalid([{ field: "X-Service-Product", message: `no project "${named}" in this account` }]);
  return named;
}

/** Whether a resource of `projectId` is within the reach of the request's key. */
export function inReach(c: Ctx, projectId: string): boolean {
  const key = c.get("key");
  return key.projectId === null || key.projectId === projectId;
}

export function findInReach<T extends { projectId: string }>(c: Ctx, items: Iterable<T>, match: (item: T) => boolean, what: string): T {
  for (const item of items) if (match(item) && inReach(c, item.projectId)) return item;
  throw notFound(what);
}

/**
 * One page of `items` (already in list order: oldest first). Cursor and limit are checked;
 * the default page size is small on purpose.
 */
export function page<T, V>(c: Ctx, list: string, items: T[], view: (item: T) => V): { data: V[]; nextCursor: string | null } {
  const rawLimit = c.req.query("limit");
  const limit = rawLimit === undefined ? c.get("rt").config.defaultPageSize : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid([{ field: "limit", message: "must be a whole number from 1 to 100" }]);
  const rawCursor = c.req.query("cursor");
  const offset = rawCursor === undefined || rawCursor === "" ? 0 : decodeCursor(list, rawCursor);
  if (offset === null) throw invalid([{ field: "cursor", message: "is not a cursor this list gave out" }]);
  const slice = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodeCursor(list, offset + limit) : null;
  return { data: slice.map(view), nextCursor: next };
}
