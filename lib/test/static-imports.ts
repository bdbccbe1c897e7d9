import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];
/** `import … from "x"`, `import "x"` and `export … from "x"`, with what is imported (to drop type-only imports). */
const STATEMENT = /^\s*(import|export)\s+(type\s+)?([^"';(]*?)\s*(?:from\s+)?["']([^"']+)["']/gm;

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  if (/\.(ts|tsx)$/.test(base) && existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  return null;
}

/** Only types are named (`{ type A, type B }`): the bundler erases the import. */
function typeOnly(typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return true;
  const names = /^\{([^}]*)\}$/.exec(clause.trim());
  return !!names && names[1]!.split(",").map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith("type "));
}

/** `import { Dialog as DialogPrimitive, Slot } from "radix-ui"` loads @radix-ui/react-dialog and @radix-ui/react-slot (the umbrella package re-exports them). */
function radixParts(clause: string): string[] {
  const names = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!names) return [];
  return names[1]!
    .split(",")
    .map((s) => s.trim().split(/\s+as\s+/)[0]!)
    .filter((s) => s && !s.startsWith("type "))
    .map((name) => `@radix-ui/react-${name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase()}`);
}

/**
 * The packages a module loads when it is evaluated: its static, non-type imports followed
 * through our own files (not `import()`, which loads on use, nor into "use server" modules). For tests that keep heavy
 * libraries off a screen's first load.
 */
export function staticPackages(entry: string): Set<string> {
  return walk(entry).packages;
}

/** Our own files a module loads when it is evaluated (repo-relative), by the same walk. */
export function staticFiles(entry: string): Set<string> {
  return new Set([...walk(entry).files].map((file) => path.relative(ROOT, file)));
}

function walk(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [path.resolve(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    // A server action: the browser gets a reference to call, never the module.
    if (/^\s*["']use server["']/.test(source)) continue;
    for (const [, , typeKeyword, clause, spec] of source.matchAll(STATEMENT)) {
      if (typeOnly(typeKeyword, clause!)) continue;
      const local = resolve(file, spec!);
      const vendored = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(spec!);
      if (local) queue.push(local);
      // A published file of a package imported by its path (past the package's exports map).
      else if (vendored) packages.add(vendored[1]!);
      else if (!spec!.startsWith(".") && !spec!.startsWith("@/")) {
        packages.add(spec!.startsWith("@") ? spec!.split("/").slice(0, 2).join("/") : spec!.split("/")[0]!);
        if (spec === "radix-ui") for (const part of radixParts(clause!)) packages.add(part);
      }
    }
  }
  return { packages, files: seen };
}
