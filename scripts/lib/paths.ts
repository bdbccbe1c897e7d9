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
};

/** The file a package declares as its command, read from its package.json "bin". */
function binOf(pkg: string, command: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${pkg} declares no "${command}" command`);
  return path.join(path.dirname(manifestPath), bin);
}

export const fromRoot = (...parts: string[]): string => path.join(ROOT, ...parts);
