import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md, "The path of a request", step 3: a route file declares its input to
 * `route()` — each path parameter and its body with a schema from lib/schemas — and the
 * server function gets it typed. Read from the source of every app/api/**\/route.ts, so a
 * new route that reads `z.unknown()`, defines a schema of its own, parses its body itself or
 * leaves a `[segment]` unchecked fails here.
 */
const ROOT = __dirname;

/** Routes that are not `route()`'s: Auth.js's own endpoints, and the ingest door (signed, checked by its own helper). */
const NOT_ROUTE = new Set(["auth/[...nextauth]", "ingest/[project]"]);

/**
 * A route file's source with the source of each module it hands a method to (`export const GET =
 * messageReadRoute;`, imported from "@/…"), where that route() call and its declarations are.
 */
function withDelegates(text: string, read: (module: string) => string): string {
  const modules = [...text.matchAll(/export\s+const\s+(?:GET|POST|PUT|PATCH|DELETE)\s*=\s*(\w+)\s*;/g)].flatMap(([, name]) => {
    const from = new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*"@/([^"]+)"`).exec(text)?.[1];
    return from ? [read(from)] : [];
  });
  return [text, ...modules].join("\n");
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

const routes = routeFiles(ROOT).map((file) => ({
  file,
  dir: path.relative(ROOT, path.dirname(file)).split(path.sep).join("/"),
  text: withDelegates(readFileSync(file, "utf8"), (module) => readFileSync(path.join(ROOT, "..", "..", `${module}.ts`), "utf8")),
}));

/** What is wrong with one route file's source, as sentences (empty when it declares its input). */
function undeclaredInput(dir: string, text: string): string[] {
  const problems: string[] = [];
  if (/z\.unknown\(\)/.test(text)) problems.push("reads a body as z.unknown()");
  if (/from\s+["']zod["']/.test(text) || /\bz\.(object|string|enum|array|union|number|record)\(/.test(text)) problems.push("defines a schema (import it from lib/schemas)");
  if (/\bparseBody\(/.test(text)) problems.push("parses its body itself (pass the schema to route() as `body`)");
  if (/\.(safeParse|parse)\(\s*(params|p)\b/.test(text) || /\bdecodeParam\(/.test(text)) problems.push("checks a path parameter itself (declare it in route()'s `params`)");
  const segments = [...dir.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => m[1]!);
  const calls = [...text.matchAll(/\broute(?:<[^>]*>)?\(\s*("[^"]*"|null)\s*,\s*([^]*?)=>/g)];
  for (const [, , rest] of calls) {
    const declared = /^\{\s*[^]*?\bparams:\s*\{([^}]*)\}/.exec(rest!)?.[1] ?? null;
    const names = declared === null ? [] : [...declared.matchAll(/(\w+)\s*:/g)].map((m) => m[1]!);
    for (const s of segments) if (!names.includes(s)) problems.push(`does not declare [${s}] with a schema`);
  }
  if (segments.length > 0 && calls.length === 0) problems.push("has path parameters but no route() call declaring them");
  return [...new Set(problems)];
}

describe("every route declares its input with schemas from lib/schemas", () => {
  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThanOrEqual(60);
  });

  it("no z.unknown() body, no schema of its own, no body or path parameter read outside route()", () => {
    const wrong = routes.filter((r) => !NOT_ROUTE.has(r.dir)).flatMap((r) => undeclaredInput(r.dir, r.text).map((p) => `${r.dir}: ${p}`));
    expect(wrong).toEqual([]);
  });

  it("reads the route() of a module a route file hands its method to", () => {
    const file = `import { readRoute } from "@/lib/server/x/read-route";\nexport const GET = readRoute;`;
    const undeclared = `export const readRoute = route("x", async ({ params }) => f(params.id));`;
    const declared = `export const readRoute = route("x", { params: { project: projectSlug, id: serviceId } }, async ({ params }) => f(params.id));`;
    expect(undeclaredInput("p/[project]/things/[id]", withDelegates(file, () => undeclared))).toEqual(["does not declare [project] with a schema", "does not declare [id] with a schema"]);
    expect(undeclaredInput("p/[project]/things/[id]", withDelegates(file, () => declared))).toEqual([]);
    expect(undeclaredInput("p/[project]/things/[id]", file)).toEqual(["has path parameters but no route() call declaring them"]);
  });

  it("tells the old forms apart from the declared one", () => {
    const old = `export const POST = route<{ project: string; id: string }>("x", async ({ req, params }) => f(params.id, await parseBody(req, z.unknown())));`;
    expect(undeclaredInput("p/[project]/things/[id]", old)).toEqual([
      "reads a body as z.unknown()",
      "parses its body itself (pass the schema to route() as `body`)",
      "does not declare [project] with a schema",
      "does not declare [id] with a schema",
    ]);
    const own = `import { z } from "zod";\nconst query = z.object({ range: z.enum(["7d"]) });\nexport const GET = route("x", { params: { project: projectSlug } }, async () => 1);`;
    expect(undeclaredInput("p/[project]/x", own)).toEqual(["defines a schema (import it from lib/schemas)"]);
    const halfway = `export const GET = route("x", { params: { project: projectSlug } }, async ({ params }) => f(idParam.parse({ id: params.id })));`;
    expect(undeclaredInput("p/[project]/x/[id]", halfway)).toEqual(["does not declare [id] with a schema"]);
    const declared = `export const POST = route("x", { params: { project: projectSlug, id: serviceId }, body: replyForm }, async ({ params, body }) => f(params.id, body));`;
    expect(undeclaredInput("p/[project]/x/[id]", declared)).toEqual([]);
  });
});
