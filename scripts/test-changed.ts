/**
 * `npm run test:changed [-- --base <ref>]`: the quick loop while working on the code. The
 * type check (incremental: what the last run learnt is kept in node_modules/.cache) and,
 * beside it, the Vitest files related to the files changed since `main` (committed or not,
 * and new files): the changed test files themselves and every test that imports a changed
 * module, directly or not. On PGlite; the browser specs among the changes are named with the
 * command that runs them. `npm test` runs everything, as CI does.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { summaryLine, type Counts } from "./lib/counts";
import { stopChildrenOnSignal } from "./lib/child";
import { ROOT } from "./lib/paths";
import { runTypecheck } from "./lib/typecheck";
import { runVitest } from "./lib/vitest-run";

stopChildrenOnSignal();

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

function baseRef(): string {
  const i = process.argv.indexOf("--base");
  if (i >= 0 && process.argv[i + 1]) return process.argv[i + 1];
  for (const ref of ["main", "origin/main"]) {
    try {
      git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
      return ref;
    } catch {
      // Not here: try the next.
    }
  }
  return "HEAD";
}

/** Files changed since where this branch left `base`: commits, staged, unstaged and new files that still exist. */
function changedFiles(base: string): string[] {
  const since = git("merge-base", base, "HEAD");
  const lists = [git("diff", "--name-only", since), git("ls-files", "--others", "--exclude-standard")];
  return [...new Set(lists.flatMap((l) => l.split("\n")).filter(Boolean))].filter((f) => existsSync(`${ROOT}/${f}`)).sort();
}

/** What `vitest related` is given: changed code, and a migration as the test-database helper that applies it. */
function relatedSources(changed: string[]): string[] {
  const sources = new Set(changed.filter((f) => /\.(ts|tsx|mts|js|mjs|json)$/.test(f) && !f.startsWith("drizzle/")));
  if (changed.some((f) => f.startsWith("drizzle/"))) sources.add("lib/server/db/test-db.ts");
  if (changed.some((f) => f.startsWith("service/db/migrations/"))) sources.add("service/db/test-db.ts");
  return [...sources];
}

const started = Date.now();
const base = baseRef();
const changed = changedFiles(base);
console.log(`${changed.length} file(s) changed since ${base}${changed.length ? `:\n  ${changed.join("\n  ")}` : "."}`);

const sources = relatedSources(changed);
const { TEST_DATABASE_URL: _unused, ...pgliteEnv } = process.env;
const [typecheck, vitest] = await Promise.all([
  runTypecheck({ prefix: "tsc", incremental: true }),
  sources.length
    ? runVitest("changed", ["related", ...sources, "--passWithNoTests"], pgliteEnv, { prefix: "vitest" }).then((r) => r.counts)
    : Promise.resolve<Counts>({ passed: 0, failed: 0 }),
]);

const specs = changed.filter((f) => /^e2e\/.*\.spec\.ts$/.test(f));
if (specs.length) console.log(`\nBrowser specs changed; run them with: npm run test:e2e -- ${specs.join(" ")}`);

const total = { passed: typecheck.passed + vitest.passed, failed: typecheck.failed + vitest.failed };
console.log(`\nType check: ${summaryLine(typecheck)}; Vitest (related): ${summaryLine(vitest)}; ${Math.round((Date.now() - started) / 1000)}s`);
console.log(`\n${summaryLine(total)}`);
process.exit(total.failed > 0 ? 1 : 0);
