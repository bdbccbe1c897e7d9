/**
 * Merge data edited field by field. Variable names follow lib/templates/variables.ts: `a.b`
 * is a value inside object `a`, `items[].name` a value inside each item of list `items`, and
 * a name that others extend (`items`, `user`) is a section. Plain and dotted names get a form
 * field; lists and sections are edited as JSON, where their shape can be written.
 */
export function formFields(variables: string[]): { fields: string[]; sections: string[] } {
  const extended = (v: string) => variables.some((o) => o.startsWith(`${v}.`) || o.startsWith(`${v}[]`));
  const fields = variables.filter((v) => !v.includes("[]") && v !== "." && !extended(v));
  const sections = variables.filter((v) => !v.includes("[]") && v !== "." && extended(v));
  return { fields, sections };
}

/** The names used inside each item of a list: `items[].name` → `name`. */
export function innerNames(variables: string[], section: string): string[] {
  const prefix = `${section}[].`;
  return [...new Set(variables.filter((v) => v.startsWith(prefix)).map((v) => v.slice(prefix.length)))];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value at a dotted name. */
export function getPath(data: Record<string, unknown>, name: string): unknown {
  let current: unknown = data;
  for (const part of name.split(".")) current = isObject(current) ? current[part] : undefined;
  return current;
}

/** A copy of `data` with the value at a dotted name set, or removed (with objects it leaves empty) when undefined. */
export function setPath(data: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = name.split(".");
  const next = { ...data };
  if (rest.length === 0) {
    if (value === undefined) delete next[head];
    else next[head] = value;
    return next;
  }
  const inner = setPath(isObject(next[head]) ? (next[head] as Record<string, unknown>) : {}, rest.join("."), value);
  if (Object.keys(inner).length === 0) delete next[head];
  else next[head] = inner;
  return next;
}

/** The JSON view of the variables form: an object of merge data, or an error naming the problem. */
export function parseMergeJson(text: string): { data: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `data: is not valid JSON (${(e as Error).message})` };
  }
  // The check of lib/schemas/common.ts's jsonObject, without zod on the template screen.
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: "data: must be a JSON object like {\"firstName\": \"Ada\"}" };
  return { data: value as Record<string, unknown> };
}
