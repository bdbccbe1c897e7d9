import { describe, expect, it } from "vitest";
import { importGraph } from "./support/source-imports";

/**
 * Review finding (review3, issue 27): tests/server-folders.test.ts checks that no two FOLDERS of
 * lib/server import each other, but a file at lib/server's root (route.ts, env.ts, overview.ts,
 * current-user.ts…) belongs to no folder there (`folderOf` returns null), so a knot through one
 * of them is invisible to it. ARCHITECTURE.md says the layers are "imported downwards only" and
 * http/ is "request plumbing below everything". Here each root file counts as a unit of its
 * own: a folder and a root file must not import each other either. This fails on 9310a0e.
 */
const PREFIX = "lib/server/";
const isTest = (file: string) => /\.test(-d)?\.tsx?$/.test(file);

/** The unit of lib/server a file belongs to: its folder, or the root file itself. */
function unitOf(file: string): string | null {
  if (!file.startsWith(PREFIX)) return null;
  const parts = file.slice(PREFIX.length).split("/");
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!;
}

function mutualUnits(graph: Map<string, string[]>): string[] {
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

describe("lib/server: no folder and root file import each other", () => {
  it("sees a knot through a root file", () => {
    const graph = new Map([
      ["lib/server/route.ts", ["lib/server/http/same-origin.ts"]],
      ["lib/server/http/body.ts", ["lib/server/route.ts"]],
    ]);
    expect(mutualUnits(graph)).toEqual(["http/ ↔ route.ts: lib/server/http/body.ts → lib/server/route.ts; lib/server/route.ts → lib/server/http/same-origin.ts"]);
  });

  it("none in the tree", () => {
    const graph = importGraph(["lib/server"]);
    expect(graph.size).toBeGreaterThan(200);
    expect(mutualUnits(graph)).toEqual([]);
  });
});
