import type { z } from "zod";

export type InvalidParam = { param: string; message: string };

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === "" ? undefined : v;
}

/**
 * A list screen's filters from its URL, checked by the list's query schema. A malformed value (a
 * hand-edited date, a stale cursor) is dropped and reported with its reason, rather than failing
 * the whole page; so is a `to` before the `from`. `fields` maps each URL parameter to its field of
 * the query (a pasted link reads better with `user` than with `actorId`). `query` is the
 * schema's output, ready for the list's server function.
 */
export function parseUrlFilters<P extends string, Q>(
  raw: Record<string, string | string[] | undefined>,
  fields: Record<P, string>,
  schema: z.ZodType<Q>,
): { filters: Partial<Record<P, string>>; query: Q; invalid: InvalidParam[] } {
  const params = Object.keys(fields) as P[];
  const filters: Partial<Record<P, string>> = {};
  const candidate: Record<string, string> = {};
  for (const param of params) {
    const v = first(raw[param]);
    if (v === undefined) continue;
    filters[param] = v;
    candidate[fields[param]] = v;
  }
  const invalid: InvalidParam[] = [];
  // Drop offending fields one round at a time; every field is independent, so two rounds suffice in practice.
  for (let round = 0; round < params.length; round++) {
    const result = schema.safeParse(candidate);
    if (result.success) break;
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "");
      const param = params.find((p) => fields[p] === field);
      if (!param || candidate[field] === undefined) continue;
      invalid.push({ param, message: issue.message });
      delete candidate[field];
      delete filters[param];
    }
  }
  if (candidate.from && candidate.to && new Date(candidate.from) > new Date(candidate.to)) {
    invalid.push({ param: "to", message: "must be after the start date" });
    delete candidate.to;
    delete filters["to" as P];
  }
  // The query as the schema reads it (trimmed, defaults filled in): the server functions take
  // parsed input and do not read it again. What is left after the drops always parses.
  return { filters, query: schema.parse(candidate), invalid };
}
