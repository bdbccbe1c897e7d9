import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md, rule 12: each recurring job of the screens is done one way (issue 27). Read
 * from the source text, so a new page, form or query that strays fails here, naming the file.
 */
const root = path.resolve(__dirname, "..");

function files(dir: string, name: RegExp): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return files(rel, name);
    return name.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const pageShells = () => [...files("app/(dashboard)", /^page\.tsx$/), ...files("app/(auth)", /^page\.tsx$/)];
const screenSources = () => [...files("app/(dashboard)", /\.tsx?$/), ...files("app/(auth)", /\.tsx?$/), ...files("components", /\.tsx?$/)];

/** The text from an opening bracket at `start` to its match (strings and comments are not special-cased: page shells are plain). */
function balanced(text: string, start: number): string {
  const open = text[start]!;
  const close = open === "(" ? ")" : "}";
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

/** Every error handler in a source text: the argument of `.catch(…)` and the block of `catch (e) {…}`. */
export function catchHandlers(text: string): string[] {
  const handlers: string[] = [];
  for (const m of text.matchAll(/\.catch\(/g)) handlers.push(balanced(text, m.index + m[0].length - 1));
  for (const m of text.matchAll(/\bcatch\s*(?:\([^)]*\)\s*)?\{/g)) handlers.push(balanced(text, m.index + m[0].length - 1));
  return handlers;
}

describe("first loads: one way (rule 3)", () => {
  it("no page shell swallows an error: every handler rethrows (tolerated parts go through optionalPart)", () => {
    const strays = pageShells().flatMap((file) => catchHandlers(read(file)).filter((h) => !/\bthrow\b/.test(h)).map((h) => `${file}: catch${h.slice(0, 60)}`));
    expect(strays).toEqual([]);
  });

  it("a page hands an AppError to its screen through firstLoad, never by its own try/toPlain", () => {
    expect(pageShells().filter((file) => /\btoPlain\(|\btry\s*\{/.test(read(file)))).toEqual([]);
  });

  it("the check itself sees a swallowed error and a rethrown one", () => {
    expect(catchHandlers("x.catch(() => undefined)")).toEqual(["(() => undefined)"]);
    expect(catchHandlers("try { a() } catch (e) { if (f(e)) notFound(); throw e; }")[0]).toMatch(/throw e/);
    expect(catchHandlers("try { a() } catch { b(); }")).toEqual(["{ b(); }"]);
  });
});

describe("links: one way", () => {
  it("only components/common/link.tsx imports next/link: every link prefetches on intent, not on sight", () => {
    const sources = [...screenSources(), ...files("app", /\.tsx?$/), ...files("lib", /\.tsx?$/)];
    const strays = [...new Set(sources)].filter((file) => file !== "components/common/link.tsx" && /from\s+["']next\/link["']/.test(read(file)));
    expect(strays).toEqual([]);
  });
});

describe("queries: one options builder", () => {
  it("only lib/queries/builders.ts writes a queryFn or calls queryOptions; every query comes from apiQuery", () => {
    const sources = [...screenSources(), ...files("lib/queries", /\.ts$/), ...files("lib", /^api-client\.ts$/)];
    const strays = sources.filter((file) => file !== "lib/queries/builders.ts" && /\bqueryFn\b|\bqueryOptions\s*\(/.test(read(file)));
    expect(strays).toEqual([]);
  });
});

/** Forms that keep another way, and why (ARCHITECTURE.md, rule 12). */
const OWN_FORMS: Record<string, string> = {
  "app/(auth)/login/login-form.tsx": "a server action: the sign-in page loads no form library (components/common/first-load.test.ts)",
  "app/(auth)/login/second-factor-form.tsx": "the sign-in's second step, through the same server action: the sign-in page loads no form library",
  "app/(dashboard)/p/[project]/compose/compose-screen.tsx": "compose: every field its own control, its state in use-compose-form.ts",
  "app/(dashboard)/p/[project]/templates/[id]/samples-bar.tsx": "one field whose refusal is a toast: free of the form library on the template screen's first load",
  "app/(dashboard)/p/[project]/contacts/lookup-form.tsx": "a look-up box (a read, like the search inputs), free of the form library on the contacts screen's first load",
  "components/common/form-dialog.tsx": "the scaffold itself",
};

describe("forms and writes: one way", () => {
  it("a form in a dialog is <FormDialog> with useFormDialogMutation", () => {
    const strays = screenSources().filter((file) => file !== "components/common/form-dialog.tsx" && /<FormDialog\s/.test(read(file)) && !/\buseFormDialogMutation\(/.test(read(file)));
    expect(strays).toEqual([]);
  });

  it("any other <form> is react-hook-form with useFormMutation (the ones that keep their own way say why)", () => {
    const strays = screenSources().filter((file) => !(file in OWN_FORMS) && /<form\b/.test(read(file)) && !/\buseForm(?:Dialog)?Mutation\(/.test(read(file)));
    expect(strays).toEqual([]);
    for (const file of Object.keys(OWN_FORMS)) expect(read(file), file).toMatch(/<form\b/); // the list holds no stale entry
  });

  it("every write goes through a mutation hook: a lib/queries mutation is called only as a mutationFn", () => {
    const strays = screenSources().flatMap((file) => {
      const text = read(file);
      const calls = text.match(/\b\w+Mutations\.\w+\(/g)?.length ?? 0;
      const hooks = text.match(/\bmutationFn\s*:/g)?.length ?? 0;
      return calls > hooks ? [`${file}: ${calls} calls, ${hooks} mutationFn`] : [];
    });
    expect(strays).toEqual([]);
  });
});
