import { describe, expect, it } from "vitest";
import { importGraph } from "./support/source-imports";

/**
 * No file-level import cycles anywhere: a cycle means neither file can be read (or loaded) first,
 * and module evaluation order starts to matter. Each knot is reported as the files that form it.
 */
const TREE = ["app", "components", "lib", "service", "scripts", "tests", "e2e"];

/** The strongly connected components with more than one file (Tarjan, iterative enough for our depth). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("no file-level import cycles", () => {
  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]]))).toEqual([]);
  });

  it("no source file imports itself back through others", () => {
    const graph = importGraph(TREE);
    expect(graph.size).toBeGreaterThan(500);
    expect(cycles(graph)).toEqual([]);
  });
});
