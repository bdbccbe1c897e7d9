import { mkdirSync } from "node:fs";
import { runToEnd, startChild } from "./child";
import type { Counts } from "./counts";
import { BIN, fromRoot } from "./paths";

/**
 * `tsc --noEmit` (TypeScript 7, BIN.tsc) over the whole repository, counted as one check: the type-level tests
 * (`*.test-d.ts`, e.g. that a project-scoped handler gets a non-null Project) run only here.
 * `incremental` keeps what it learnt in node_modules/.cache for the next run (the quick loop,
 * `npm run test:changed`): a change to one module is checked again in a fraction of the time.
 * With `prefix`, its output is prefixed (parts running side by side).
 */
export async function runTypecheck(opts: { prefix?: string; incremental?: boolean } = {}): Promise<Counts> {
  const args = [BIN.tsc, "--noEmit", "--pretty", "false"];
  if (opts.incremental) {
    mkdirSync(fromRoot("node_modules", ".cache", "mail-dashboard"), { recursive: true });
    args.push("--incremental", "--tsBuildInfoFile", fromRoot("node_modules", ".cache", "mail-dashboard", "tsc.tsbuildinfo"));
  }
  const code = opts.prefix
    ? await startChild({ name: opts.prefix, command: process.execPath, args, env: process.env, echo: "prefix" }).exited
    : await runToEnd(process.execPath, args, process.env);
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}
