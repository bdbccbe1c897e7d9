import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph } from "./support/source-imports";

/**
 * ARCHITECTURE.md, "lib/server": its folders and the files at its root form a hierarchy, so no
 * two of them import each other (directly: a imports b and b imports a). Each file at the root
 * (route.ts, env.ts, overview.ts…) counts as a unit of its own: a knot through one of them is
 * as much a knot as one between two folders (review3 found four that a folders-only check
 * missed). Read from the source text. Tests are left out: a test may set up with the units above
 * the one it tests (an ingest to check a re-read).
 */
const PREFIX = "lib/server/";

/** The unit of lib/server a file belongs to: its folder ("http/"), or the root file itself ("env.ts"). */
export function unitOf(file: string): string | null {
  if (!file.startsWith(PREFIX)) return null;
  const parts = file.slice(PREFIX.length).split("/");
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!;
}

const isTest = (file: string) => /\.test(-d)?\.tsx?$/.test(file);

/** Every pair of units that import each other, as "a ↔ b" with one file of each way. */
export function mutualUnits(graph: Map<string, string[]>): string[] {
  const edges = new Map<string, string>();
  for (const [file, targets] of graph) {
    const from = unitOf(file);
    if (from === null || isTest(file)) continue;
    for (const target of targets) {
      const to = unitOf(target);
      if (to !== null && to !== from && !edges.has(`${from}→${to}`)) edges.set(`${from}→${to}`, `${file} → ${target}`);
    }
  }
  const pairs: string[] = [];
  for (const [key, example] of edges) {
    const [from, to] = key.split("→") as [string, string];
    if (from < to && edges.has(`${to}→${from}`)) pairs.push(`${from} ↔ ${to}: ${example}; ${edges.get(`${to}→${from}`)}`);
  }
  return pairs.sort();
}

describe("lib/server folders and root files do not import each other", () => {
  it("finds a pair of folders that does", () => {
    const graph = new Map([
      ["lib/server/a/x.ts", ["lib/server/b/y.ts", "lib/server/env.ts"]],
      ["lib/server/b/y.ts", ["lib/server/a/z.ts"]],
      ["lib/server/b/y.test.ts", ["lib/server/c/w.ts"]],
      ["lib/server/c/w.ts", ["lib/server/b/y.ts"]],
    ]);
    expect(mutualUnits(graph)).toEqual(["a/ ↔ b/: lib/server/a/x.ts → lib/server/b/y.ts; lib/server/b/y.ts → lib/server/a/z.ts"]);
  });

  it("finds a knot through a root file", () => {
    const graph = new Map([
      ["lib/server/route.ts", ["lib/server/http/same-origin.ts"]],
      ["lib/server/http/body.ts", ["lib/server/route.ts"]],
    ]);
    expect(mutualUnits(graph)).toEqual(["http/ ↔ route.ts: lib/server/http/body.ts → lib/server/route.ts; lib/server/route.ts → lib/server/http/same-origin.ts"]);
  });

  it("resources are named one way: no index.ts, no file repeating its folder's name", () => {
    // db/ and service/ are the two entry points every resource imports whole (`@/lib/server/db`,
    // `@/lib/server/service`), not resources.
    const files = [...importGraph(["lib/server"]).keys()].filter((f) => !/^lib\/server\/(db|service)\//.test(f));
    expect(files.filter((f) => f.endsWith("/index.ts") || path.posix.basename(f, ".ts") === path.posix.basename(path.posix.dirname(f)))).toEqual([]);
  });

  it("no two folders or root files of lib/server import each other", () => {
    const graph = importGraph(["lib/server"]);
    expect(graph.size).toBeGreaterThan(200);
    expect(mutualUnits(graph)).toEqual([]);
  });
});
