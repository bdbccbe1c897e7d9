import Mustache from "mustache";
import { variableCollector, type MustacheToken } from "../../contract/template-variables";

/**
 * Template rendering with Mustache: `{{var}}` is HTML-escaped in html, `{{{var}}}` is raw,
 * `{{#list}}…{{/list}}` repeats, dotted names drill into objects. Subject and text are
 * plain text, so nothing is escaped there.
 *
 * Besides the output, it reports the names a template uses (`variables`) and the ones
 * the data lacks (`missing`), so a preview can show them and a send can refuse to go out
 * with a hole in it; the walk that finds them, and how it names them, is the one the
 * dashboard uses too (contract/template-variables.ts).
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

function parse(part: keyof TemplateParts, template: string): MustacheToken[] {
  try {
    return writer.parse(template) as MustacheToken[];
  } catch (error) {
    throw new TemplateSyntaxError(part, error instanceof Error ? error.message : String(error));
  }
}

/** Renders the three parts with `data`; throws TemplateSyntaxError when a part does not parse. */
export function renderTemplate(parts: TemplateParts, data: Record<string, unknown>): RenderResult {
  const collect = variableCollector(data);
  const result: TemplateParts = { subject: null, html: null, text: null };
  for (const part of ["subject", "html", "text"] as const) {
    const template = parts[part];
    if (template == null) continue;
    collect.add(parse(part, template));
    result[part] = writer.render(template, data, undefined, part === "html" ? undefined : { escape: raw });
  }
  return { ...result, ...collect.result() };
}
