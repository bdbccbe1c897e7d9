import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root: every script runs from here whatever the caller's directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const require = createRequire(import.meta.url);

/**
 * Entry files of the CLIs we run. Spawning them with this Node binary (rather than through
 * npx or npm) keeps one process per child, so stopping its group stops exactly it.
 */
export const BIN = {
  next: binOf(require.resolve("next/package.json", { paths: [ROOT] }), "next"),
  tsx: binOf(require.resolve("tsx/package.json", { paths: [ROOT] }), "tsx"),
  vitest: binOf(require.resolve("vitest/package.json", { paths: [ROOT] }), "vitest"),
  playwright: binOf(require.resolve("@playwright/test/package.json", { paths: [ROOT] }), "playwright"),
  /**
   * TypeScript 7, the native port, for the type check only (scripts/lib/typecheck.ts): the same
   * checker in Go, on both cores. The whole repository, cold: 20 s and 38 CPU-s against 51 s
   * and 72 CPU-s with TypeScript 5.9 (this 2-core machine), the same findings. Next's build and
   * the editor keep `typescript` 5.9, whose JavaScript API TypeScript 7 does not have.
   */
  tsc: binOf(require.resolve("typescript-native/package.json", { paths: [ROOT] }), "tsc"),
};

/**
 * Node's flags for the dashboard's server, wherever it is started (npm start, the browser
 * suites, the benchmarks). They keep its resident memory under 400 MB through a 100,000-row
 * batch on PGlite (bench:batch):
 * - `--max-old-space-size=384`: V8 lets the old generation grow past what survived the last
 *   full collection by a factor that shrinks with the limit (4x under the 4 GB default of a
 *   24 GB machine, 1.6x under 1 GB, 1.35x here). The dashboard holds 50-90 MB live at its
 *   busiest (files are checked and stored in slices); a 100,000-row file peaked at 120 MB.
 * - `--max-semi-space-size=4`: the young generation is two semi-spaces, both touched as it
 *   cycles; 4 MB each instead of 16 keeps 24 MB fewer resident. Smaller costs CPU where
 *   requests allocate fast: at 2 MB, with the old generation held to 384 MB, short-lived
 *   objects of the ingest were promoted and collected as old ones (bench:ingest on Postgres,
 *   0.57 ms of CPU per event against 0.27-0.35; at 4 MB, 0.30-0.41).
 * `next dev` (compiling as it serves) keeps Node's defaults.
 */
export const DASHBOARD_NODE_FLAGS = ["--max-old-space-size=384", "--max-semi-space-size=4"];

/** Arguments for this Node binary that run `next start` (or `next dev`) like `npm start` does. */
export const nextServerArgs = (port: number | string, host = "127.0.0.1", mode: "start" | "dev" = "start"): string[] => [
  ...(mode === "start" ? DASHBOARD_NODE_FLAGS : []),
  // A benchmark's `--cpu-prof DIR`: the dashboard writes a CPU profile there when it stops.
  ...(process.env.DASHBOARD_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.DASHBOARD_CPU_PROF_DIR}`] : []),
  BIN.next,
  mode,
  "-p",
  String(port),
  "-H",
  host,
];

/**
 * The file a package declares as its command, read from its package.json "bin". Each package
 * is named in a require.resolve of its own, so tools that look for the packages a repository
 * uses find every one of them here.
 */
function binOf(manifestPath: string, command: string): string {
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${manifestPath} declares no "${command}" command`);
  return path.join(path.dirname(manifestPath), bin);
}

export const fromRoot = (...parts: string[]): string => path.join(ROOT, ...parts);
