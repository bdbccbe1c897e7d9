import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { projects, templates } from "../db/schema";
import { newId } from "./ids";
import { TemplateSyntaxError, renderTemplate } from "./render";

/** `service/templates/<slug>/{template.json, body.html, body.txt}`: the interface has no create operation for templates. */
export const TEMPLATES_DIR = fileURLToPath(new URL("../templates", import.meta.url));

export type TemplateFile = { slug: string; name: string; subject: string; html: string | null; text: string | null };

const meta = z.object({ name: z.string().trim().min(1).max(200), subject: z.string().min(1).max(998) });
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

function readOptional(path: string) {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/**
 * Reads every template folder. A broken one stops the start with a message naming the
 * file: templates are part of the service, not user input.
 */
export function loadTemplateFiles(dir: string = TEMPLATES_DIR): TemplateFile[] {
  if (!existsSync(dir)) return [];
  const out: TemplateFile[] = [];
  for (const slug of readdirSync(dir).sort()) {
    const folder = join(dir, slug);
    if (!statSync(folder).isDirectory()) continue;
    if (!SLUG.test(slug)) throw new Error(`${folder}: a template folder's name is its slug: lower-case letters, digits and dashes`);
    const metaPath = join(folder, "template.json");
    const parsed = meta.safeParse(JSON.parse(readOptional(metaPath) ?? "null"));
    if (!parsed.success) throw new Error(`${metaPath}: needs {"name": string, "subject": string} (${parsed.error.issues[0]?.message})`);
    const file = { slug, ...parsed.data, html: readOptional(join(folder, "body.html")), text: readOptional(join(folder, "body.txt")) };
    if (file.html === null && file.text === null) throw new Error(`${folder}: needs body.html, body.txt or both`);
    try {
      renderTemplate(file, {});
    } catch (error) {
      if (error instanceof TemplateSyntaxError) throw new Error(`${folder}: ${error.message}`);
      throw error;
    }
    out.push(file);
  }
  return out;
}

/**
 * Puts the file templates into every project (or the given ones): inserted where the
 * project lacks the slug, updated where the files changed, so it is safe on every start.
 * Ids and creation times of existing templates stay.
 */
export async function syncTemplates(db: Pick<Db, "select" | "insert">, files: TemplateFile[] = loadTemplateFiles(), projectIds?: string[]) {
  if (files.length === 0) return 0;
  const ids = projectIds ?? (await db.select({ id: projects.id }).from(projects)).map((p) => p.id);
  if (ids.length === 0) return 0;
  const rows = ids.flatMap((projectId) => files.map((f) => ({ id: newId("tmpl"), projectId, ...f })));
  await db.insert(templates).values(rows).onConflictDoUpdate({
    target: [templates.projectId, templates.slug],
    set: { name: sql`excluded.name`, subject: sql`excluded.subject`, html: sql`excluded.html`, text: sql`excluded.text` },
  });
  return rows.length;
}
