import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCE_DIRS } from "./build";
import { ROOT } from "./paths";

/** The top folders the dashboard's code under `dir` imports from with `@/…` (tests and lib/test/ harnesses are not built). */
function importedTopFolders(dir: string): Set<string> {
  const found = new Set<string>();
  const visit = (rel: string) => {
    for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (child !== path.join("lib", "test")) visit(child);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of readFileSync(path.join(ROOT, child), "utf8").matchAll(/from\s+["']@\/([^/"']+)/g)) found.add(m[1]!);
      }
    }
  };
  visit(dir);
  return found;
}

describe("the build's sources", () => {
  it("include every folder the dashboard's code imports from, so a change there makes the build stale", () => {
    const imported = new Set(["app", "components", "lib"].flatMap((dir) => [...importedTopFolders(dir)]));
    expect(imported.has("contract")).toBe(true);
    expect([...imported].filter((top) => !SOURCE_DIRS.includes(top))).toEqual([]);
  });
});
