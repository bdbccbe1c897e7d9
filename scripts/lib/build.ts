import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runToEnd, startChild, type Echo, type Env } from "./child";
import { BIN, ROOT } from "./paths";
import { ensurePgliteTemplate } from "../../contract/db/pglite-template";

/** What the dashboard's build is made from (contract/: the code it shares with service/); a change to any of these makes the build stale. */
export const SOURCE_DIRS = ["app", "components", "lib", "contract", "public", "hooks", "styles"];
const SOURCE_FILES = [
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
// Tests do not end up in the build; editing one should not cost a rebuild.
const NOT_SOURCE = /\.test\.tsx?$|(^|\/)test-db\.ts$/;

function newestIn(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(full));
    else if (entry.isFile() && !NOT_SOURCE.test(full)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  // A deleted file shows only as a newer directory.
  return Math.max(newest, statSync(dir).mtimeMs);
}

export function newestSourceTime(): number {
  const dirs = SOURCE_DIRS.map((d) => newestIn(path.join(ROOT, d)));
  const files = SOURCE_FILES.map((f) => {
    try {
      return statSync(path.join(ROOT, f)).mtimeMs;
    } catch {
      return 0;
    }
  });
  return Math.max(...dirs, ...files);
}

/** Why the build in `distDir` must be redone, or null when it is current. */
export function staleReason(distDir: string): string | null {
  let built: number;
  try {
    // Next writes BUILD_ID last, once a build has succeeded.
    built = statSync(path.join(ROOT, distDir, "BUILD_ID")).mtimeMs;
  } catch {
    return `no build in ${distDir}/ yet`;
  }
  return newestSourceTime() > built ? `sources changed since the build in ${distDir}/` : null;
}

/**
 * `next build` into `distDir` when it is missing or older than the sources. With `prefix`,
 * its output is prefixed (parts running side by side); with `echo`, each line is handed to it
 * (the launcher's JSON lines, ./json-lines.ts).
 */
export async function buildIfStale(distDir: string, env: Env, opts: { prefix?: string; echo?: Echo } = {}): Promise<void> {
  // The empty database a first start copies, made here so the running dashboard never runs
  // initdb (about 800 MB for two seconds; contract/db/pglite-template.ts).
  await ensurePgliteTemplate(ROOT);
  const reason = staleReason(distDir);
  if (!reason) {
    console.log(`Dashboard build in ${distDir}/ is current.`);
    return;
  }
  console.log(`Building the dashboard (${reason}); this takes a minute or two the first time...`);
  const started = Date.now();
  const args = [BIN.next, "build"];
  const buildEnv = { ...env, NEXT_DIST_DIR: distDir };
  const code = await keepingTsconfig(distDir, () =>
    opts.prefix || opts.echo
      ? startChild({ name: opts.prefix ?? "build", command: process.execPath, args, env: buildEnv, echo: opts.echo ?? "prefix" }).exited
      : runToEnd(process.execPath, args, buildEnv),
  );
  if (code !== 0) throw new Error(`next build failed (exit ${code}); its output is above.`);
  console.log(`Dashboard built in ${Math.round((Date.now() - started) / 1000)}s.`);
}

/**
 * `next build` adds `<distDir>/types/**` to tsconfig.json's include for any build folder not
 * listed there yet. A test build (.next-e2e) must not leave the developer's tsconfig changed,
 * so that one edit is undone; any other change found in the file is left alone.
 */
async function keepingTsconfig<T>(distDir: string, build: () => Promise<T>): Promise<T> {
  const file = path.join(ROOT, "tsconfig.json");
  const before = readFileSync(file, "utf8");
  const times = statSync(file);
  try {
    return await build();
  } finally {
    const after = readFileSync(file, "utf8");
    if (after !== before) {
      try {
        const was = JSON.parse(before) as { include?: string[] };
        const now = JSON.parse(after) as { include?: string[] };
        const added = (now.include ?? []).filter((entry) => !(was.include ?? []).includes(entry));
        const onlyOurs = added.every((entry) => entry.startsWith(`${distDir}/`));
        if (onlyOurs && JSON.stringify({ ...now, include: was.include }) === JSON.stringify(was)) {
          writeFileSync(file, before);
          // Its old time too: the file is as it was, and the build must not look stale.
          utimesSync(file, times.atime, times.mtime);
        }
      } catch {
        // Not plain JSON any more: someone else's edit; leave it.
      }
    }
  }
}
