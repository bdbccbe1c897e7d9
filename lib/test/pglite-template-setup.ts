import { ensurePgliteTemplate } from "@/lib/server/db/pglite-template";

/**
 * Vitest's global setup: the empty PGlite directory every test database is copied from, made
 * once before the files run instead of an initdb per file (lib/server/db/pglite-template.ts).
 */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}
