import "server-only";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pgliteExtensions } from "./extensions";
import { copyPgliteTemplate, initdbInChild } from "@/contract/db/pglite-template";
import { watchWrites } from "@/contract/db/write-epoch";

/**
 * PGlite's buffer cache. Its default, 128 MB, is WebAssembly memory that once touched stays
 * resident for the life of the process; 16 MB keeps the embedded dashboard's footprint small
 * while the operating system's page cache still holds the data files (PGlite reads them
 * through ordinary file calls). A deployment whose index outgrows that runs on Postgres.
 */
const SHARED_BUFFERS = "16MB";

/**
 * Opens the PGlite database in `dataDir`, creating it first when the directory holds none.
 * `{ image }` opens one in memory instead, loaded from a data directory PGlite dumped
 * (`dumpDataDir`): the test databases (lib/server/db/test-db.ts), which unpacking an image
 * makes about twice as cheap as copying a directory's 1,250 files and opening them on disk.
 */
export async function openPglite(where: string | { image: Blob }) {
  if (typeof where === "string") {
    // PGlite does not create its directory.
    await mkdir(where, { recursive: true });
    // A new directory: the empty one made ahead (contract/db/pglite-template.ts), or initdb in a child
    // process, whose memory (about 800 MB, never handed back while a process lives) goes with it.
    if (!existsSync(path.join(where, "PG_VERSION")) && !(await copyPgliteTemplate(where))) await initdbInChild(where);
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const options = {
    extensions: await pgliteExtensions(),
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
  };
  const pg = typeof where === "string" ? new PGlite(where, options) : new PGlite("memory://", { ...options, loadDataDir: where.image });
  yieldWhileHeldTooLong(pg);
  // Every write counted, so what was read can be kept until the next one (contract/db/write-epoch.ts).
  watchWrites(pg);
  return pg;
}

/**
 * How long a chain of statements may hold the event loop before it gives the loop a turn.
 * Short enough that a socket's data waits at most this long behind the database; long enough
 * that a transaction of a dozen sub-millisecond statements (the ingest's) runs in one go. A
 * turn after every exchange was 1,200 turns for 200 statements, each one waiting, under load,
 * for every socket's data. (It was not what slows a signed delivery at the onset of a flood of
 * posts, e2e/abuse-ingest.spec.ts's finding 1: that stayed at about a second.)
 */
const TURN_EVERY_MS = 5;

/** When the current run of statements without a turn of the event loop began. */
let heldSince: number | undefined;

/**
 * PGlite runs a statement synchronously under its promise, so a chain of awaited statements
 * (a transaction, a batch worker's claim after its write, the ingest's next group) resolves
 * through microtasks and never lets the event loop read a socket: the answers the service
 * sent, and the requests ready to go to it, wait until the whole chain is done. An exchange
 * with the engine that ends TURN_EVERY_MS or more after the chain took the loop gives it a
 * turn (setImmediate), as the local service's job worker does for the same reason
 * (service/worker/messages.ts, yieldToIo). The first exchange of a turn notes when it began,
 * and a check-phase callback clears that once the loop has turned, however the chain ended.
 */
function yieldWhileHeldTooLong(pg: object): void {
  const engine = pg as Record<"execProtocol" | "execProtocolStream", (...args: unknown[]) => Promise<unknown>>;
  for (const method of ["execProtocol", "execProtocolStream"] as const) {
    const exchange = engine[method].bind(pg);
    engine[method] = async (...args: unknown[]) => {
      if (heldSince === undefined) {
        heldSince = performance.now();
        setImmediate(() => (heldSince = undefined));
      }
      try {
        return await exchange(...args);
      } finally {
        if (heldSince !== undefined && performance.now() - heldSince >= TURN_EVERY_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    };
  }
}
