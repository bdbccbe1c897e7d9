import "server-only";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pgliteExtensions } from "./extensions";
import { copyPgliteTemplate, initdbInChild } from "./pglite-template";

/**
 * PGlite's buffer cache. Its default, 128 MB, is WebAssembly memory that once touched stays
 * resident for the life of the process; 16 MB keeps the embedded dashboard's footprint small
 * while the operating system's page cache still holds the data files (PGlite reads them
 * through ordinary file calls). A deployment whose index outgrows that runs on Postgres.
 */
const SHARED_BUFFERS = "16MB";

/** Opens the PGlite database in `dataDir`, creating it first when the directory holds none. */
export async function openPglite(dataDir: string) {
  // PGlite does not create its directory.
  await mkdir(dataDir, { recursive: true });
  // A new directory: the empty one made ahead (./pglite-template.ts), or initdb in a child
  // process, whose memory (about 800 MB, never handed back while a process lives) goes with it.
  if (!existsSync(path.join(dataDir, "PG_VERSION")) && !(await copyPgliteTemplate(dataDir))) await initdbInChild(dataDir);
  const { PGlite } = await import("@electric-sql/pglite");
  return new PGlite(dataDir, {
    extensions: await pgliteExtensions(),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
  });
}
