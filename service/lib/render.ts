import Mustache from "mustache";

/**
 * Template rendering with Mustache: `{{var}}` is HTML-escaped in html, `{{{var}}}` is raw,
 * `{{#list}}…{{/list}}` repeats, dotted names drill into objects. Subject and text are
 * plain text, so nothing is escaped there.
 *
 * Besides the output, it reports the names a template uses (`variables`) and the ones
 * the data lacks (`missing`), so a preview can show them and a send can refuse to go out
 * with a hole in it. Naming: a name inside a section is reported relative to the section,
 * `items[].name` for a list (or a section with no data, taken as a list), `user.name` for
 * an object; a name the data resolves in an outer context keeps the outer name.
 * Missing: a value tag (`{{x}}`, `{{{x}}}`) that would render with no value (absent or
 * null). Sections are never missing themselves: Mustache defines an absent section as
 * false/empty, which is how optional blocks and `{{^items}}none{{/items}}` work; names
 * inside a section that does not render are listed but not missing.
 */

export type TemplateParts = { subject: string | null; html: string | null; text: string | null };
export type RenderResult = TemplateParts & { variables: string[]; missing: string[] };

/** A part that does not parse (an unclosed section, say); `part` names it. */
export class TemplateSyntaxError extends Error {
  constructor(readonly part: keyof TemplateParts, message: string) {
    super(`${part}: ${message}`);
  }
}

/** Parsed templates are kept, but only a bounded number: previews may send anything. */
const CACHE_LIMIT = 500;
function boundedCache() {
  const map = new Map<string, unknown>();
  return {
    get: (key: string) => map.get(key),
    set: (key: string, value: unknown) => {
      if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value as string);
      map.set(key, value);
    },
    clear: () => map.clear(),
  };
}
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: unknown }).templateCache = boundedCache();

const raw = (value: unknown) => String(value);

// Token layout of Mustache.parse: [type, value, start, end, children?, ...].
type Token = [string, string, number, number, Token[]?, ...unknown[]];
type Frame = { view: unknown; prefix: string };
type Collect = { variables: Set<string>; missing: Set<string> };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";

/** Mustache's own lookup through the context stack, also telling which frame answered. */
function lookup(stack: Frame[], name: string): { value: unknown; frame: Frame | null } {
  if (name === ".") return { value: stack[stack.length - 1].view, frame: stack[stack.length - 1] };
  const parts = name.split(".");
  for (let i = stack.length - 1; i >= 0; i--) {
    let current: unknown = stack[i].view;
    let hit = false;
    for (let p = 0; p < parts.length; p++) {
      if (p === parts.length - 1) hit = isObject(current) && parts[p] in current;
      current = isObject(current) ? current[parts[p]] : undefined;
    }
    if (hit) return { value: current, frame: stack[i] };
  }
  return { value: undefined, frame: null };
}

function nameOf(stack: Frame[], key: string, frame: Frame | null): string {
  const prefix = (frame ?? stack[stack.length - 1]).prefix;
  if (key === ".") return prefix.endsWith(".") ? prefix.slice(0, -1) : prefix || ".";
  return prefix + key;
}

/**
 * Walks the tokens the way Mustache renders them. `live` is false inside a section that
 * does not render: its names are still variables, but none of them is missing.
 */
function walk(tokens: Token[], stack: Frame[], live: boolean, out: Collect) {
  for (const token of tokens) {
    const [type, key] = token;
    if (type === "name" || type === "&") {
      const { value, frame } = lookup(stack, key);
      const name = nameOf(stack, key, frame);
      out.variables.add(name);
      if (live && value == null) out.missing.add(name);
    } else if (type === "#" || type === "^") {
      const { value, frame } = lookup(stack, key);
      const name = nameOf(stack, key, frame);
      out.variables.add(name);
      const children = token[4] ?? [];
      const empty = !value || (Array.isArray(value) && value.length === 0);
      if (type === "^") {
        walk(children, stack, live && empty, out); // an inverted section keeps the context
      } else if (empty) {
        walk(children, [...stack, { view: undefined, prefix: `${name}[].` }], false, out);
      } else if (Array.isArray(value)) {
        for (const item of value) walk(children, [...stack, { view: item, prefix: `${name}[].` }], live, out);
      } else if (isObject(value)) {
        walk(children, [...stack, { view: value, prefix: `${name}.` }], live, out);
      } else {
        // A truthy scalar (a flag) is pushed as context but has no names of its own.
        walk(children, [...stack, { view: value, prefix: stack[stack.length - 1].prefix }], live, out);
      }
    }
    // text, comments, set-delimiter and partials (none are defined) carry no variables
  }
}

function parse(part: keyof TemplateParts, template: string): Token[] {
  try {
    return writer.parse(template) as Token[];
  } catch (error) {
    throw new TemplateSyntaxError(part, error instanceof Error ? error.message : String(error));
  }
}

/** Renders the three parts with `data`; throws TemplateSyntaxError when a part does not parse. */
export function renderTemplate(parts: TemplateParts, data: Record<string, unknown>): RenderResult {
  const out: Collect = { variables: new Set(), missing: new Set() };
  const root: Frame[] = [{ view: data, prefix: "" }];
  const result: TemplateParts = { subject: null, html: null, text: null };
  for (const part of ["subject", "html", "text"] as const) {
    const template = parts[part];
    if (template == null) continue;
    walk(parse(part, template), root, true, out);
    result[part] = writer.render(template, data, undefined, part === "html" ? undefined : { escape: raw });
  }
  return { ...result, variables: [...out.variables], missing: [...out.missing] };
}
