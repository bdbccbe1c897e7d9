/**
 * The merge variables a Mustache template uses, and which of them `data` leaves empty, read
 * from Mustache's own parse tree (so `{{name}}`, `{{{name}}}`, `{{& name}}`, dotted names,
 * sections, inverted sections, comments, partials and changed delimiters are all understood as
 * the renderer understands them). One walk for both programs, so they name variables alike:
 * the local service reports them beside a render (service/lib/render.ts); the dashboard works
 * them out itself when a service lists none (lib/templates/variables.ts). Each side parses
 * with its own Mustache writer: what to do with a part that does not parse, and what to cache,
 * is theirs.
 *
 * Naming: a name inside a section is relative to it — `items[].name` for a list (or a section
 * without data, taken as a list), `user.name` for an object — unless the data resolves it in an
 * outer context, which keeps the outer name. Missing: a value tag that would render with no
 * value (absent or null). Sections are never missing (Mustache defines an absent section as
 * false, which is how optional blocks and `{{^items}}none{{/items}}` work), nor are names inside
 * a section that does not render.
 */

/** Token layout of Mustache's parser: [type, value, start, end, children?, ...]. */
export type MustacheToken = [string, string, number, number, MustacheToken[]?, ...unknown[]];
export type TemplateVariables = { variables: string[]; missing: string[] };

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
 * Walks the tokens the way Mustache renders them. `live` is false inside a section that does
 * not render: its names are still variables, but none of them is missing.
 */
function walk(tokens: MustacheToken[], stack: Frame[], live: boolean, out: Collect): void {
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
    // Text, comments (!), partials (>) and delimiter changes (=) carry no variables.
  }
}

/**
 * Collects the variables of a template's parts against `data`: `add` each part's tokens in
 * order (subject, html, text), then `result` lists them in order of first use.
 */
export function variableCollector(data: Record<string, unknown>) {
  const out: Collect = { variables: new Set(), missing: new Set() };
  const root: Frame[] = [{ view: data, prefix: "" }];
  return {
    add: (tokens: MustacheToken[]) => walk(tokens, root, true, out),
    result: (): TemplateVariables => ({ variables: [...out.variables], missing: [...out.missing] }),
  };
}
