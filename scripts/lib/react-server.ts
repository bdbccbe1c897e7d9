import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Server modules import "server-only", which only loads under the react-server condition: a
 * script that imports them calls this first. The first process re-runs the script (`scriptUrl`,
 * its `import.meta.url`) with the condition and the same arguments, marked by the environment
 * variable `marker`, and exits with the child's status; in the child this returns at once.
 */
export function rerunUnderReactServer(scriptUrl: string, marker: string): void {
  if (process.env[marker]) return;
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, [marker]: "1" },
  });
  process.exit(run.status ?? 1);
}
