import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

/**
 * An empty PGlite data directory, made once per PGlite version and copied into every new data
 * directory. Creating one (initdb) takes PGlite about 800 MB of memory for two seconds, and
 * that memory counts against whichever process runs it; copying the 40 MB of files takes
 * none. So the template is made ahead, where memory is not the dashboard's: by the build
 * (scripts/lib/build.ts) and before the test suites (scripts/test.ts). Without one, a new
 * directory is still created, in a child process (lib/server/db/pglite.ts).
 *
 * Not "server-only": the build and test scripts make it outside Next.
 */

// Resolved from the project, not from this module: Next bundles server code, and PGlite is
// one of its external packages, loaded from node_modules at run time.
const projectRequire = (root: string) => createRequire(path.join(root, "package.json"));

/** The installed PGlite's version, from its package.json (which the package does not export). */
function pgliteVersion(root: string): string {
  let dir = path.dirname(projectRequire(root).resolve("@electric-sql/pglite"));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === "@electric-sql/pglite" && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level: keep going up.
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error("the installed @electric-sql/pglite has no package.json with its version");
    dir = up;
  }
}

/** Where the template for the installed PGlite lives (under node_modules, so a new install makes a new one). */
export function pgliteTemplateDir(root = process.cwd()): string {
  const version = pgliteVersion(root);
  return path.join(root, "node_modules", ".cache", "mail-dashboard", `pglite-${version}-empty`);
}

/**
 * Creates a PGlite data directory in `dataDir` by running initdb in a short-lived child
 * process: initdb's memory, never handed back while a process lives, goes with the child.
 */
export async function initdbInChild(dataDir: string, root = process.cwd()): Promise<void> {
  const entry = projectRequire(root).resolve("@electric-sql/pglite");
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
(async () => { const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close(); })()
  .catch((e) => { console.error(e && e.message ? e.message : String(e)); process.exit(1); });`;
  try {
    await promisify(execFile)(process.execPath, ["-e", script], { timeout: 120_000 });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create a database in ${dataDir}${stderr ? `: ${stderr}` : ""}`);
  }
}

/**
 * Makes the template unless it is there. Built beside it and renamed into place, so a reader
 * never sees half a template, and two processes making it at once both end with one.
 */
export async function ensurePgliteTemplate(root = process.cwd()): Promise<string> {
  const template = pgliteTemplateDir(root);
  if (existsSync(path.join(template, "PG_VERSION"))) return template;
  await mkdir(path.dirname(template), { recursive: true });
  const scratch = await mkdtemp(`${template}.making-`);
  try {
    await initdbInChild(path.join(scratch, "data"), root);
    await rename(path.join(scratch, "data"), template).catch((e: NodeJS.ErrnoException) => {
      // Another process put its template there first: the same files, keep theirs.
      if (!existsSync(path.join(template, "PG_VERSION"))) throw e;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return template;
}

/**
 * Fills the empty or missing `dataDir` from the template: copied beside it and renamed into
 * place, so a start stopped halfway leaves no directory that looks whole. False when there
 * is no template yet, or `dataDir` already holds other files (initdb judges those).
 */
export async function copyPgliteTemplate(dataDir: string, root = process.cwd()): Promise<boolean> {
  const template = pgliteTemplateDir(root);
  if (!existsSync(path.join(template, "PG_VERSION"))) return false;
  const scratch = await mkdtemp(`${dataDir}.copying-`);
  try {
    await cp(template, path.join(scratch, "data"), { recursive: true });
    // Onto an empty directory, rename replaces it; onto one holding files it fails.
    return await rename(path.join(scratch, "data"), dataDir).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
