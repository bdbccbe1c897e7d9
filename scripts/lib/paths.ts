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
  next: binOf("next", "next"),
  tsx: binOf("tsx", "tsx"),
  vitest: binOf("vitest", "vitest"),
  playwright: binOf("@playwright/test", "playwright"),
  tsc: binOf("typescript", "tsc"),
};

/**
 * Node's flags for the dashboard's server, wherever it is started (npm start, the browser
 * suites, the benchmarks). With a large heap limit (on a 24 GB machine the default is 4 GB)
 * V8 lets the old generation grow to four times what survived the last full collection:
 * a 100,000-row batch piled up 200 MB of garbage between collections, about 80 MB being
 * live. Under a 1 GB limit it grows by 1.6 times at most. A gigabyte is still far above what
 * the dashboard holds at its busiest (files are checked and stored in slices).
 */
export const DASHBOARD_NODE_FLAGS = ["--max-old-space-size=1024"];

/** Arguments for this Node binary that run `next start` (or `next dev`) like `npm start` does. */
export const nextServerArgs = (port: number | string, host = "127.0.0.1", mode: "start" | "dev" = "start"): string[] => [
  ...DASHBOARD_NODE_FLAGS,
  BIN.next,
  mode,
  "-p",
  String(port),
  "-H",
  host,
];

/** The file a package declares as its command, read from its package.json "bin". */
function binOf(pkg: string, command: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${pkg} declares no "${command}" command`);
  return path.join(path.dirname(manifestPath), bin);
}

export const fromRoot = (...parts: string[]): string => path.join(ROOT, ...parts);
