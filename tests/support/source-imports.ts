import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The repository's file-level import graph, read from source text (as tests/import-direction
 * does), so every form counts: `import … from`, `import "…"`, `export … from`, `import("…")`,
 * `require("…")`. Type-only imports count too: a cycle of types is still a knot to read.
 * Module paths handed to `vi.mock` are left out — they name a module, they do not load it.
 */
export const root = path.resolve(__dirname, "../..");

const SPECIFIERS = [/\b(?:from|import)\s*["']([^"']+)["']/g, /\b(?:import|require)\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?["'`]([^"'`$]+)["'`]/g];

/** The module paths a source text names. */
export function specifiers(text: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

const SOURCE = /\.(c|m)?(t|j)sx?$/;
const SKIP = new Set(["node_modules", ".next", ".next-e2e", ".data"]);

/** Every source file under `dir` (repo-relative, posix separators). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sourceFiles(rel);
    return SOURCE.test(entry.name) ? [rel] : [];
  });
}

const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js"];

/** The repo file a specifier in `file` loads, or null for a package (or a path that is not there). */
export function resolveImport(file: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : null;
  if (base === null) return null;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  // `./x.js` written for a TypeScript file x.ts.
  const stripped = base.replace(/\.(c|m)?js$/, "");
  for (const ext of [".ts", ".tsx"]) if (stripped !== base && existsSync(path.join(root, stripped + ext))) return stripped + ext;
  return null;
}

/** file → the repo files it imports, for every source file under `dirs`. */
export function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const targets = specifiers(readFileSync(path.join(root, file), "utf8"))
      .map((spec) => resolveImport(file, spec))
      .filter((target): target is string => target !== null && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}
