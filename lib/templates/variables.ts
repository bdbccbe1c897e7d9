import Mustache from "mustache";
import { variableCollector, type MustacheToken, type TemplateVariables } from "@/contract/template-variables";

/**
 * The merge variables a template uses, and which of them `data` leaves empty. The interface
 * defines neither (a template has subject/html/text; a preview's answer is "not shown"), so the
 * dashboard works them out itself when the service lists none, with the same walk the local
 * service reports them with (contract/template-variables.ts: how names are formed, what is
 * missing), so both read alike.
 */
export type TemplateParts = { subject?: string | null; html?: string | null; text?: string | null };
export type TemplateAnalysis = TemplateVariables;

// A writer of our own without a template cache: previews may send any text, and none of it should stay in memory.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: unknown }).templateCache = undefined;

/** Tokens of one part, or none when it does not parse (the service will say why when it renders). */
function tokensOf(template: string): MustacheToken[] {
  try {
    return writer.parse(template) as MustacheToken[];
  } catch {
    return [];
  }
}

/** The variables the parts use, in order of first use, and those `data` leaves empty. */
export function analyzeTemplate(parts: TemplateParts, data: Record<string, unknown> = {}): TemplateAnalysis {
  const collect = variableCollector(data);
  for (const part of [parts.subject, parts.html, parts.text]) {
    if (typeof part === "string" && part) collect.add(tokensOf(part));
  }
  return collect.result();
}

/** The variables the parts use (names as with no data: sections read as lists). */
export function templateVariables(parts: TemplateParts): string[] {
  return analyzeTemplate(parts).variables;
}
