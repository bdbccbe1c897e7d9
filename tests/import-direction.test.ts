import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md, rule 9: imports run one way, app/ → components/ → lib/. Nothing in lib/
 * imports from components/ or app/, nothing in components/ from app/ — tests included (a test
 * of a route handler sits beside the route, under app/). And the two programs meet only in
 * contract/: it imports neither, service/ reaches the dashboard's code through it alone, and
 * the dashboard's code never imports service/ (its tests and test harnesses may, to start the
 * local service they test against). Read from the source text, so every form counts:
 * `import … from`, `import "…"`, `export … from`, `import("…")`, `require("…")` and the module
 * paths handed to `vi.mock` and its kin.
 */
const root = path.resolve(__dirname, "..");

const FORBIDDEN: Record<string, string[]> = { lib: ["app", "components"], components: ["app"] };

const SPECIFIERS = [
  /\b(?:from|import)\s*["']([^"']+)["']/g,
  /\b(?:import|require|vi\.(?:mock|doMock|unmock|doUnmock|importActual|importMock))\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?["'`]([^"'`$]+)["'`]/g,
];

/** The module paths a source text names, in any of the forms above. */
function specifiers(text: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

/** The top folder of the repository a specifier points into (`@/app/x` → app), or null for a package. */
function topFolder(file: string, spec: string): string | null {
  const target = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : null;
  return target === null ? null : target.split("/")[0]!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(c|m)?(t|j)sx?$/.test(entry.name) ? [rel] : [];
  });
}

/** Every import of `dir` that points the wrong way, as "file → specifier". */
function wrongWay(dir: string): string[] {
  return sourceFiles(dir).flatMap((file) =>
    specifiers(readFileSync(path.join(root, file), "utf8"))
      .filter((spec) => FORBIDDEN[dir]!.includes(topFolder(file, spec) ?? ""))
      .map((spec) => `${file} → ${spec}`),
  );
}

/** Every import of the repository's own files from `files` whose top folder `allowed` refuses, as "file → specifier". */
function crossings(files: string[], allowed: (file: string, top: string) => boolean): string[] {
  return files.flatMap((file) =>
    specifiers(readFileSync(path.join(root, file), "utf8")).flatMap((spec) => {
      const top = topFolder(file, spec);
      return top === null || allowed(file, top) ? [] : [`${file} → ${spec}`];
    }),
  );
}

/** The dashboard's own files: app/, components/, lib/ and the source files at the root (proxy.ts, instrumentation.ts…). */
function dashboardFiles(): string[] {
  const rootFiles = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(c|m)?(t|j)sx?$/.test(e.name))
    .map((e) => e.name);
  return [...sourceFiles("app"), ...sourceFiles("components"), ...sourceFiles("lib"), ...rootFiles];
}

/** A test, or a harness tests share: code that may start the local service in-process. */
const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith("lib/test/");

describe("imports run one way: app/ → components/ → lib/", () => {
  it("reads every form of import", () => {
    const text = [
      `import { a } from "@/app/a";`,
      `import "../app/b";`,
      `export { c } from "@/app/c";`,
      `export * from '@/components/d';`,
      `import type { E } from "@/app/e";`,
      `const f = await import("@/app/f");`,
      `const g = await import(/* @vite-ignore */ "@/app/g");`,
      `vi.mock("@/app/h", () => ({}));`,
      `vi.doMock("@/app/i");`,
      `const j = require("@/app/j");`,
    ].join("\n");
    expect(specifiers(text)).toEqual(expect.arrayContaining(["@/app/a", "../app/b", "@/app/c", "@/components/d", "@/app/e", "@/app/f", "@/app/g", "@/app/h", "@/app/i", "@/app/j"]));
    expect(topFolder("lib/server/x.test.ts", "../../app/api/route")).toBe("app");
    expect(topFolder("lib/server/x.ts", "./app")).toBe("lib");
    expect(topFolder("lib/server/x.ts", "next/server")).toBeNull();
  });

  it("nothing in lib/ imports from components/ or app/", () => {
    expect(sourceFiles("lib").length).toBeGreaterThan(100);
    expect(wrongWay("lib")).toEqual([]);
  });

  it("nothing in components/ imports from app/", () => {
    expect(sourceFiles("components").length).toBeGreaterThan(20);
    expect(wrongWay("components")).toEqual([]);
  });
});

describe("the two programs meet in contract/ only", () => {
  it("contract/ imports nothing of the repository but itself, tests included", () => {
    expect(sourceFiles("contract").length).toBeGreaterThan(15);
    expect(crossings(sourceFiles("contract"), (_, top) => top === "contract")).toEqual([]);
  });

  it("service/ reaches the dashboard's code through contract/ only", () => {
    expect(sourceFiles("service").length).toBeGreaterThan(50);
    const wrong = crossings(sourceFiles("service"), (_, top) => top === "service" || top === "contract");
    expect(wrong).toEqual([]);
  });

  it("the dashboard's code never imports service/; its tests and test harnesses may, to start it", () => {
    const files = dashboardFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(crossings(files.filter((file) => !isTestCode(file)), (_, top) => top !== "service")).toEqual([]);
    // The exception is real and used: the tests run against the real local service.
    expect(crossings(files.filter(isTestCode), (_, top) => top !== "service").length).toBeGreaterThan(0);
  });

  it("tells a test or harness from the dashboard's code", () => {
    expect(isTestCode("lib/test/real-service.ts")).toBe(true);
    expect(isTestCode("app/api/p/[project]/api-keys/api-keys.test.ts")).toBe(true);
    expect(isTestCode("lib/server/service/client.ts")).toBe(false);
  });
});
