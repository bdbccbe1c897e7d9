import { z } from "zod";
import type { PreviewRequest, PreviewResponse, Template } from "@/lib/schemas/templates";
import { analyzeTemplate, templateVariables } from "@/lib/templates/variables";
import { idReader, isRecord, nullableText, timeReader } from "./common";

/** A list of names: strings, or objects naming one (`{name: "first"}`); anything else → undefined. */
function nameList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .map((v) => (typeof v === "string" ? v : isRecord(v) && typeof (v.name ?? v.key) === "string" ? String(v.name ?? v.key) : null))
    .filter((v): v is string => Boolean(v && v.trim()));
}

/**
 * A stored template. `variables` is a local-service extra: when the service lists none, the
 * dashboard reads them from subject, html and text itself (lib/templates/variables.ts).
 */
export const templateReader = z
  .object({
    id: idReader,
    slug: nullableText,
    name: nullableText,
    subject: nullableText,
    html: nullableText,
    text: nullableText,
    createdAt: timeReader,
    variables: z.unknown().optional().transform(nameList),
  })
  .transform((t): Template => {
    const parts = { subject: t.subject ?? "", html: t.html, text: t.text };
    return {
      id: t.id,
      slug: t.slug,
      name: t.name ?? t.slug ?? t.id,
      subject: parts.subject,
      html: t.html,
      text: t.text,
      createdAt: t.createdAt ?? "",
      variables: t.variables ?? templateVariables(parts),
    };
  });

/** Where services put the rendered draft: the top level, or one of these wrappers. */
const WRAPPERS = ["rendered", "data", "result", "template", "preview", "output", "email", "message"];
const PART_KEYS = ["subject", "html", "text", "body", "content", "htmlBody", "textBody"];

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function renderedOf(body: Record<string, unknown>): Record<string, unknown> | null {
  const queue: Record<string, unknown>[] = [body];
  for (let i = 0; i < queue.length && i < 20; i++) {
    const node = queue[i];
    // A part present as null is an answer too: an empty draft renders to nothing.
    if (PART_KEYS.some((k) => typeof node[k] === "string" || isRecord(node[k]) || (k in node && node[k] === null))) return node;
    for (const key of WRAPPERS) if (isRecord(node[key])) queue.push(node[key] as Record<string, unknown>);
  }
  return null;
}

/** The html and text of a rendered draft, also when nested under `body`/`content` or named `htmlBody`. */
function partsOf(node: Record<string, unknown>): { subject: string | null; html: string | null; text: string | null } {
  const nested = [node.body, node.content].filter(isRecord);
  const html =
    str(node.html) ?? str(node.htmlBody) ?? str(node.html_body) ?? nested.map((n) => str(n.html)).find((v) => v !== null) ??
    str(node.body) ?? str(node.content) ?? null;
  const text =
    str(node.text) ?? str(node.textBody) ?? str(node.text_body) ?? str(node.plain) ?? nested.map((n) => str(n.text) ?? str(n.plain)).find((v) => v !== null) ?? null;
  return { subject: str(node.subject), html, text };
}

/**
 * The answer to POST /v1/templates/preview, whose shape the interface does not show: the
 * rendered subject/html/text wherever they are, and the variables and missing ones as the
 * service lists them — or as the dashboard works them out from the draft it sent.
 */
export function previewReader(request: PreviewRequest) {
  return z.unknown().optional().transform((value, ctx): PreviewResponse => {
    const body = isRecord(value) ? value : null;
    const node = body && renderedOf(body);
    if (!body || !node) {
      ctx.addIssue({ code: "custom", message: "the preview answer carries no subject, html or text" });
      return z.NEVER;
    }
    const given = (key: string[]) => [node, body].flatMap((n) => key.map((k) => nameList(n[k]))).find((v) => v !== undefined);
    const variables = given(["variables", "vars", "mergeVariables", "merge_variables", "placeholders"]);
    const missing = given(["missing", "missingVariables", "missing_variables", "missingVars", "unresolved"]);
    const own = variables && missing ? null : analyzeTemplate(request, request.data ?? {});
    return { ...partsOf(node), variables: variables ?? own!.variables, missing: missing ?? own!.missing };
  });
}
