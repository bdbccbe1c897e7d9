import "server-only";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { pgliteExtensions } from "./extensions";

/**
 * PGlite's buffer cache. Its default, 128 MB, is WebAssembly memory that once touched stays
 * resident for the life of the process; 16 MB keeps the embedded dashboard's footprint small
 * while the operating system's page cache still holds the data files (PGlite reads them
 * through ordinary file calls). A deployment whose index outgrows that runs on Postgres.
 */
const SHARED_BUFFERS = "16MB";

/**
 * Creating a data directory (initdb) grows PGlite's WebAssembly memory to about 700 MB, and
 * that memory is never handed back while the instance's process lives. So a new directory is
 * created by a short-lived child process, and this process only ever opens an existing one
 * (about 170 MB).
 */
async function initdbInChild(dataDir: string): Promise<void> {
  // Resolved from the project, not from this module: Next bundles server code, and PGlite is
  // one of its external packages, loaded from node_modules at run time.
  const entry = createRequire(path.join(process.cwd(), "package.json")).resolve("@electric-sql/pglite");
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
(async () => { const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close(); })()
  .catch((e) => { console.error(e && e.message ? e.message : String(e)); process.exit(1); });`;
  try {
    await promisify(execFile)(process.execPath, ["-e", script], { timeout: 120_000 });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the dashboard's database in ${dataDir}${stderr ? `: ${stderr}` : ""}`);
  }
}

/** Opens the PGlite database in `dataDir`, creating it first when the directory holds none. */
export async function openPglite(dataDir: string) {
  // PGlite does not create its directory.
  await mkdir(dataDir, { recursive: true });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initdbInChild(dataDir);
  const { PGlite } = await import("@electric-sql/pglite");
  return new PGlite(dataDir, {
    extensions: await pgliteExtensions(),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
  });
}
