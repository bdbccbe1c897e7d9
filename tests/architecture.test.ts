import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md is where a newcomer learns the layout; these checks keep it true of the tree:
 * every path it names exists, and the two placement rules it states hold. The READMEs name
 * files too (the limits, the logs, the service's parts): theirs must exist as well.
 */
const root = path.resolve(__dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const doc = read("ARCHITECTURE.md");

/** Folders a run makes and git ignores (`test-results/`, …): what a document says of them is not checked, their contents come and go. */
const ignoredFolders = new Set(read(".gitignore").split("\n").map((line) => line.trim().match(/^\/?([\w.-]+)\/$/)?.[1]).filter(Boolean));

/** The top folders of `dir`: a path a document names starts at one of them (`readers/` is named relative to its parent). */
const foldersOf = (dir: string) =>
  new Set(readdirSync(path.join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules" && !ignoredFolders.has(e.name)).map((e) => e.name));

/** Paths a document names: in code spans, and (with `blocks`) the left column of its layout blocks. */
function namedPaths(text: string, topLevel: Set<string>, blocks = true): string[] {
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  const columns = blocks ? [...text.matchAll(/```\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n").map((line) => line.split(/\s{2,}/)[0].trim())) : [];
  return [...new Set([...spans, ...columns])].filter(
    // A path: has a folder in it, is no URL (/login) and no pattern (<resource>, *.test.ts, …).
    (p) => p.includes("/") && !p.startsWith("/") && !/[<>*]|\.\.\.|…|\s/.test(p) && /^[\w.@()[\]/-]+$/.test(p),
  ).filter((p) => topLevel.has(p.split("/")[0]));
}

/** What `namedPaths` finds that exists neither from the root nor from the document's own folder. */
const missingPaths = (paths: string[], docDir = ".") =>
  paths.filter((p) => ![".", docDir].some((dir) => existsSync(path.join(root, dir, p.replace(/\/$/, "")))));

const sourceFile = (name: string) => /\.(ts|tsx)$/.test(name) && !/\.test(-d)?\.tsx?$/.test(name);

/** app/ and components/ files, with the `@/…` paths they import (static and dynamic). */
function importsBelow(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (d: string) => {
    for (const entry of readdirSync(path.join(root, d), { withFileTypes: true })) {
      const rel = path.posix.join(d, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path.join(root, rel), "utf8");
        out.set(rel, [...text.matchAll(/(?:from|import\()\s*["']@\/([^"']+)["']/g)].map((m) => m[1]));
      }
    }
  };
  walk(dir);
  return out;
}

describe("ARCHITECTURE.md", () => {
  it("names only paths that exist", () => {
    const paths = namedPaths(doc, foldersOf("."));
    expect(paths.length).toBeGreaterThan(20);
    expect(missingPaths(paths)).toEqual([]);
  });

  it("the check finds a path that does not exist", () => {
    const made = "lib/server/http/no-such-helper.ts";
    expect(missingPaths(namedPaths(`${doc}\nThe helper (\`${made}\`).`, foldersOf(".")))).toEqual([made]);
  });

  it("lib/server: a folder holds several source files; a resource of one file stands flat", () => {
    const lone: string[] = [];
    const walk = (d: string) => {
      const entries = readdirSync(path.join(root, d), { withFileTypes: true });
      const sources = entries.filter((e) => e.isFile() && sourceFile(e.name));
      if (d !== "lib/server" && sources.length < 2) lone.push(`${d} (${sources.map((e) => e.name).join(", ") || "tests only"})`);
      for (const e of entries) if (e.isDirectory()) walk(path.posix.join(d, e.name));
    };
    walk("lib/server");
    // Generated or fixed-shape folders: migrations and the schema's tables are named by what they hold.
    expect(lone.filter((d) => !/^lib\/server\/db\/(migrations|schema)\b/.test(d))).toEqual([]);
  });

  it("components/<feature>/ holds only what two or more screens use", () => {
    const shared = new Set(["ui", "common", "hooks", "charts", "shell"]);
    const features = readdirSync(path.join(root, "components"), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !shared.has(e.name))
      .map((e) => e.name);
    expect(features.length).toBeGreaterThan(3);
    const app = importsBelow("app");
    // A screen is the folder of a page (its page.tsx and the parts beside it).
    const screensUsing = (feature: string) =>
      new Set([...app].filter(([, imports]) => imports.some((i) => i.startsWith(`components/${feature}/`))).map(([file]) => path.posix.dirname(file)));
    const single = features.filter((f) => screensUsing(f).size < 2).map((f) => `components/${f}: ${[...screensUsing(f)].join(", ") || "no screen"}`);
    expect(single).toEqual([]);
  });
});

describe.each([
  ["README.md", "."],
  ["service/README.md", "service"],
])("%s", (file, dir) => {
  it("names only paths that exist", () => {
    // Code spans only: the READMEs' code blocks are commands, not layouts.
    const paths = namedPaths(read(file), new Set([...foldersOf("."), ...foldersOf(dir)]), false);
    expect(paths.length).toBeGreaterThan(5);
    expect(missingPaths(paths, dir)).toEqual([]);
  });
});
