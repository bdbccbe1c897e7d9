import "server-only";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Outside Next (Vitest, tsx scripts) a worker thread has no bundle to run: it loads its
 * TypeScript entry through tsx's API, as Node 20 does not apply `--import tsx` to a worker's
 * own entry. In Next (built or `next dev`) the caller writes
 * `new Worker(new URL("./x.ts", import.meta.url))` itself, the only form Next bundles.
 * NEXT_RUNTIME tells them apart: Next sets it in its bundles; import.meta.url does not, as
 * Next keeps the source file's name in it.
 */
export const WORKER_FROM_SOURCE = !process.env.NEXT_RUNTIME;

/** A worker running the TypeScript file `entryUrl` (a file: URL), imported relative to `parentUrl`. */
export function workerFromSource(entryUrl: string, parentUrl: string, options: WorkerOptions): Worker {
  const load = `import("tsx/esm/api").then((tsx) => tsx.tsImport(${JSON.stringify(entryUrl)}, ${JSON.stringify(parentUrl)}))`;
  // Reflect.construct: this form is for source only, and must not look like a worker entry to Next's bundler.
  return Reflect.construct(Worker, [load, { ...options, eval: true }]) as Worker;
}
