import fc from "fast-check";
import type { z } from "zod";

/**
 * fast-check arbitraries from zod 4 schemas, plus hostile input. No maintained bridge
 * supports zod 4 (zod-fast-check targets zod 3), so this walks the schema's own definition
 * (`schema._zod.def`): objects, arrays, records, unions, enums, literals, strings with their
 * length, format and pattern checks, numbers, and the wrappers (optional, default, pipe…).
 * It aims at values the schema accepts most of the time; the mutations below take care of
 * the rest.
 */

type Def = { type: string; [key: string]: unknown };
type Check = { _zod: { def: { check: string; [key: string]: unknown } } };

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check["_zod"]["def"][] => ((def.checks as Check[] | undefined) ?? []).map((c) => c._zod.def);

/** Any JSON value, small. */
export const jsonValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;

const emailArb = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom("ada@example.com", "ADA@Example.com", "delivered@example.com", "bounce@example.com", "news@alpha.test"),
);

function stringArb(def: Def): fc.Arbitrary<string> {
  let min = 0;
  let max = 40;
  let format: string | null = null;
  let pattern: RegExp | null = null;
  for (const c of checksOf(def)) {
    if (c.check === "min_length") min = Number(c.minimum);
    if (c.check === "max_length") max = Number(c.maximum);
    if (c.check === "length_equals") min = max = Number(c.length);
    if (c.check === "string_format") {
      format = String(c.format);
      if (c.pattern instanceof RegExp && format === "regex") pattern = c.pattern;
    }
  }
  if (format === "email") return emailArb;
  if (format === "url") return fc.oneof(fc.webUrl(), fc.constantFrom("https://hooks.example.com/x", "http://127.0.0.1:9/hook", "http://169.254.169.254/"));
  if (format === "uuid" || format === "guid") return fc.uuid();
  if (format === "datetime") return fc.date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (pattern) return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= Math.max(max, min));
  const upper = Math.min(Math.max(min, max), min + 60);
  return fc.oneof(fc.string({ minLength: min, maxLength: upper }), fc.string({ unit: "grapheme", minLength: min, maxLength: upper }));
}

function numberArb(def: Def, integer: boolean): fc.Arbitrary<number> {
  let min = -1000;
  let max = 100_000;
  for (const c of checksOf(def)) {
    if (c.check === "greater_than") min = Number(c.value) + (c.inclusive ? 0 : 1);
    if (c.check === "less_than") max = Number(c.value) - (c.inclusive ? 0 : 1);
    if (c.check === "number_format" && String(c.format).includes("int")) integer = true;
  }
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) }) : fc.double({ min, max: Math.max(min, max), noNaN: true });
}

export function fromZod(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return jsonValue;
  const def = defOf(schema);
  const next = (s: unknown) => fromZod(s, depth + 1);
  switch (def.type) {
    case "string":
      return stringArb(def);
    case "number":
      return numberArb(def, false);
    case "int":
    case "bigint":
      return numberArb(def, true);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "undefined":
    case "void":
      return fc.constant(undefined);
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case "date":
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case "array": {
      let maxLength = 4;
      let minLength = 0;
      for (const c of checksOf(def)) {
        if (c.check === "min_length") minLength = Number(c.minimum);
        if (c.check === "max_length") maxLength = Math.min(Number(c.maximum), 4);
      }
      return fc.array(next(def.element), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case "tuple":
      return fc.tuple(...(def.items as unknown[]).map(next));
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(shape)) record[key] = next(child);
      const optional = Object.keys(shape).filter((k) => ["optional", "default", "prefault"].includes(defOf(shape[k]).type));
      return fc.record(record, { requiredKeys: Object.keys(shape).filter((k) => !optional.includes(k)) });
    }
    case "record":
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), next(def.valueType), { maxKeys: 4 });
    case "map":
    case "set":
      return fc.constant({});
    case "union":
      return fc.oneof(...(def.options as unknown[]).map(next));
    case "intersection":
      return fc.tuple(next(def.left), next(def.right)).map(([a, b]) => (typeof a === "object" && typeof b === "object" ? { ...(a as object), ...(b as object) } : a));
    case "optional":
      return fc.option(next(def.innerType), { nil: undefined, freq: 4 });
    case "nullable":
      return fc.option(next(def.innerType), { nil: null, freq: 4 });
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return next(def.innerType);
    case "pipe":
      return next(def.in);
    case "lazy":
      return next((def.getter as () => unknown)());
    default:
      // unknown, any, transform, custom, …: anything JSON.
      return jsonValue;
  }
}

/** A NUL, a lone surrogate, right-to-left marks, emoji, very long: strings that break things. */
export const hostileString = fc.oneof(
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "\udfff\ud800", "\u202e\u0000", "%00", "%zz", "%E0%A4%A", "../../etc/passwd", "'; drop table users; --", "<script>alert(1)</script>"),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => "x".repeat(n)),
  fc.string({ unit: "binary", maxLength: 20 }),
);

/** Nesting far beyond any shape of the interface. */
const deepValue = fc.integer({ min: 40, max: 400 }).map((depth) => {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

const wrongType = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.integer(), { maxLength: 3 }), hostileString, deepValue);

/** Replaces one place of `value` (chosen by `pick`) with `replacement`. */
function replaceSomewhere(value: unknown, pick: number, replacement: unknown): unknown {
  const paths: (string | number)[][] = [[]];
  const walk = (v: unknown, path: (string | number)[], depth: number) => {
    if (depth > 6 || typeof v !== "object" || v === null) return;
    for (const [k, child] of Object.entries(v)) {
      const p = [...path, Array.isArray(v) ? Number(k) : k];
      paths.push(p);
      walk(child, p, depth + 1);
    }
  };
  walk(value, [], 0);
  const path = paths[pick % paths.length];
  if (!path.length) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path[path.length - 1]] = replacement;
  return copy;
}

/** A request body: JSON from the schema, mutated JSON, or raw bytes that are not JSON at all. */
export type BodyCase = { json: unknown } | { raw: string | Uint8Array };

export function bodyArb(schema: unknown | null): fc.Arbitrary<BodyCase> {
  const valid = schema ? fromZod(schema) : jsonValue;
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((json) => ({ json })) },
    { weight: 4, arbitrary: fc.tuple(valid, fc.nat(), wrongType).map(([v, pick, bad]) => ({ json: replaceSomewhere(v, pick, bad) })) },
    { weight: 1, arbitrary: fc.tuple(valid, fc.dictionary(hostileString, jsonValue, { maxKeys: 3 })).map(([v, extra]) => ({ json: typeof v === "object" && v && !Array.isArray(v) ? { ...extra, ...v } : v })) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom("{", '{"a":', "[1,", "nul", "{'a':1}", '{"a":1}}', "\ufeff{}", "", " ", "[]", "1", '"text"', "null", "true"),
        fc.string(),
        fc.integer({ min: 1000, max: 200_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
        fc.uint8Array({ maxLength: 64 }),
        fc.constant(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d])), // {"a":"<bad UTF-8>"}
      ).map((raw) => ({ raw })),
    },
  );
}

/** A path parameter as the handler receives it (already decoded), ordinary or hostile. */
export function paramArb(ordinary: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ordinary) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9_-]{1,24}$/) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 5000 && s.length > 0) },
  );
}

/** encodeURIComponent, with lone surrogates (which it refuses) made well-formed first. */
export function safeEncode(s: string): string {
  return encodeURIComponent((s as string & { toWellFormed(): string }).toWellFormed());
}

/** A raw query string: from the schema's keys, with hostile values, or bad percent-encoding. */
export function queryArb(schema: unknown | null): fc.Arbitrary<string> {
  const keys = schema && defOf(schema).type === "object" ? Object.keys(defOf(schema).shape as object) : ["q", "limit", "cursor"];
  const enc = safeEncode;
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })),
    fc.oneof(fc.string({ maxLength: 20 }).map(enc), hostileString.filter((s) => s.length < 3000).map(enc), fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "-1", "0", "101", "1e9", "NaN", "2026-13-45", "true")),
  );
  return fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${v}`).join("&"));
}

/** How many cases a fuzz target runs, and the seed: fixed in CI, larger with `npm run fuzz`. */
export const FUZZ = {
  runs: Number(process.env.FUZZ_RUNS) || 8,
  seed: Number(process.env.FUZZ_SEED) || 20261124,
};

/**
 * fc.assert, with the counterexample shortened: a hostile case can be a 300 KB string, and
 * the report must still fit on a screen. The seed and path replay it exactly.
 */
export async function assertProperty<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  const out = await fc.check(property, params);
  if (!out.failed) return;
  const example = JSON.stringify(out.counterexample, (_k, v) => (typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length} chars)` : v));
  const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(`Property failed after ${out.numRuns} runs (seed ${out.seed}, path "${out.counterexamplePath}"):\n${cause.slice(0, 1200)}\nCounterexample: ${(example ?? "").slice(0, 2000)}`);
}

/** The schema's validation failures must name their field. */
export function namesAField(error: { param?: unknown; message?: unknown } | undefined): boolean {
  return typeof error?.param === "string" && error.param.length > 0 && typeof error.message === "string" && error.message.length > 0;
}

export type ZodSchema = z.ZodType;
