import Mustache from "mustache";

/**
 * The merge variables a template uses, and which of them `data` leaves empty, read with
 * Mustache's own parser (so `{{name}}`, `{{{name}}}`, `{{& name}}`, dotted names, sections,
 * inverted sections, comments, partials and changed delimiters are all understood as a
 * renderer understands them).
 *
 * The interface defines neither (a template has subject/html/text; a preview's answer is
 * "not shown"), so the dashboard works them out itself when the service lists none. Names
 * follow the bundled service's convention so both read alike: a name inside a section is
 * relative to it — `items[].name` for a list (or a section without data, taken as a list),
 * `user.name` for an object — unless the data resolves it in an outer context. Missing: a
 * value tag that would render with no value (absent or null); sections are never missing
 * (an absent section is simply false), nor are names inside a section that does not render.
 */
export type TemplateParts = { subject?: string | null; html?: string | null; text?: string | null };
export type TemplateAnalysis = { variables: string[]; missing: string[] };

// Token layout of Mustache's parser: [type, value, start, end, children?, ...].
type Token = [string, string, number, number, Token[]?, ...unknown[]];
type Frame = { view: unknown; prefix: string };
type Collect = { variables: Set<string>; missing: Set<string> };

// A writer of our own without a template cache: previews may send any text, and none of it should stay in memory.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: unknown }).templateCache = undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";

/** Mustache's lookup through the context stack, also telling which frame answered. */
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

/** Walks the tokens as Mustache renders them; `live` is false inside a section that does not render. */
function walk(tokens: Token[], stack: Frame[], live: boolean, out: Collect): void {
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
      if (type === "^") walk(children, stack, live && empty, out);
      else if (empty) walk(children, [...stack, { view: undefined, prefix: `${name}[].` }], false, out);
      else if (Array.isArray(value)) for (const item of value) walk(children, [...stack, { view: item, prefix: `${name}[].` }], live, out);
      else if (isObject(value)) walk(children, [...stack, { view: value, prefix: `${name}.` }], live, out);
      else walk(children, [...stack, { view: value, prefix: stack[stack.length - 1].prefix }], live, out);
    }
    // Text, comments (!), partials (>) and delimiter changes (=) carry no variables.
  }
}

/** Tokens of one part, or none when it does not parse (the service will say why when it renders). */
function tokensOf(template: string): Token[] {
  try {
    return writer.parse(template) as Token[];
  } catch {
    return [];
  }
}

/** The variables the parts use, in order of first use, and those `data` leaves empty. */
export function analyzeTemplate(parts: TemplateParts, data: Record<string, unknown> = {}): TemplateAnalysis {
  const out: Collect = { variables: new Set(), missing: new Set() };
  const root: Frame[] = [{ view: data, prefix: "" }];
  for (const part of [parts.subject, parts.html, parts.text]) {
    if (typeof part === "string" && part) walk(tokensOf(part), root, true, out);
  }
  return { variables: [...out.variables], missing: [...out.missing] };
}

/** The variables the parts use (names as with no data: sections read as lists). */
export function templateVariables(parts: TemplateParts): string[] {
  return analyzeTemplate(parts).variables;
}
