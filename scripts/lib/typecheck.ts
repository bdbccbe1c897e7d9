import { spawn } from "node:child_process";
import type { Counts } from "./counts";
import { BIN, ROOT } from "./paths";

/**
 * `tsc --noEmit` over the whole repository, counted as one check: the type-level tests
 * (`*.test-d.ts`, e.g. that a project-scoped handler gets a non-null Project) run only here.
 */
export function runTypecheck(): Promise<Counts> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN.tsc, "--noEmit", "--pretty", "false"], { cwd: ROOT, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }));
  });
}
