import Mustache from "mustache";
import { invalid } from "./problems";
import type { Store, StoredTemplate } from "./store";

/**
 * Templates cannot be created through the interface, so every project starts with these.
 * The first is the one the journeys use: two plain variables in the subject and a list
 * section in the body. Nothing here lists the variables a template uses.
 */
const SEEDED: Omit<StoredTemplate, "id" | "projectId" | "createdAt">[] = [
  {
    slug: "hello-aboard",
    name: "Hello aboard",
    subject: "Welcome to {{company}}, {{firstName}}!",
    html:
      "<h1>Hello {{firstName}}</h1><p>Thanks for joining {{company}}. Your starter kit:</p>" +
      "<ul>{{#items}}<li>{{name}}: {{price}}</li>{{/items}}</ul>",
    text: "Hello {{firstName}},\n\nThanks for joining {{company}}. Your starter kit:\n{{#items}}- {{name}}: {{price}}\n{{/items}}",
  },
  { slug: null, name: "Password help", subject: "Reset your {{company}} password", html: null, text: "Use this link within an hour: {{resetUrl}}" },
  { slug: "invoice", name: "Invoice", subject: "Invoice {{invoice.number}} from {{company}}", html: "<p>Amount due: {{invoice.total}}</p>", text: null },
  { slug: "notice", name: "Plain notice", subject: "A notice from us", html: "<p>Nothing to fill in here.</p>", text: "Nothing to fill in here." },
];

export function seedTemplates(store: Store, projectId: string, index: number): void {
  SEEDED.forEach((t, i) => {
    // Ids carry the project's position so they differ per project, and a dot like every contrarian id.
    const id = `tp.${String(index + 1).padStart(2, "0")}${String(i + 1).padStart(3, "0")}`;
    store.templates.push({ ...t, id, projectId, createdAt: new Date(Date.UTC(2026, 0, 5 + i, 9, 30)) });
  });
}

/** Renders one part. Missing values render as nothing (plain Mustache): the send is not refused. */
export function renderPart(source: string | null | undefined, data: Record<string, unknown>, field: string): string | null {
  if (source === null || source === undefined) return null;
  try {
    return Mustache.render(source, data, {}, { escape: field === "html" ? Mustache.escape : (v: string) => v });
  } catch (e) {
    throw invalid([{ field, message: `does not parse as a template: ${e instanceof Error ? e.message : String(e)}` }]);
  }
}
