import http from "node:http";

/**
 * Setup of every Vitest file (vitest.config.ts). The files share their worker's process and
 * its loaded modules (`isolate: false`); each starts from what the process started with
 * wherever the dashboard keeps state for the whole process, as it would in a process of its own
 * (a module's own variables stay: caches keyed by random ids, and settings a test sets and restores itself):
 * - the environment: a variable one file set (TRUSTED_PROXIES, PASSWORD_WORKERS, ...) never
 *   reaches the next;
 * - the holders on globalThis (`Symbol.for("mail-dashboard.…")`: the database handle, caches,
 *   the parsed environment, worker pools, agents, background work): Next bundles routes separately, so everything one
 *   process must share lives there, and a file finds none of the last file's. A pool left
 *   behind is not waited for: its threads are unref'd and end when idle;
 * - Node's HTTP server: the request hooks a file installed (lib/server/http/http-request-hook.ts
 *   patches http.Server.prototype, once per hook) would otherwise answer the next file's test
 *   servers with that file's limits and environment.
 */
type Patched = { emit: unknown } & Record<symbol, unknown>;
const OURS = "mail-dashboard.";
const AT_START = Symbol.for(`${OURS}test-process-at-start`);
const holders = globalThis as unknown as Record<symbol, unknown> & { [AT_START]?: { env: Record<string, string | undefined>; serverEmit: unknown } };
const proto = http.Server.prototype as unknown as Patched;
const atStart = (holders[AT_START] ??= { env: { ...process.env }, serverEmit: proto.emit });
const ours = (key: symbol) => Symbol.keyFor(key)?.startsWith(OURS) ?? false;

/** What the setup does, once per file; exported for its own test. */
export function startAsIfOwnProcess(): void {
  for (const key of Object.keys(process.env)) if (!(key in atStart.env)) delete process.env[key];
  for (const [key, value] of Object.entries(atStart.env)) if (value !== undefined) process.env[key] = value;

  for (const key of Object.getOwnPropertySymbols(globalThis)) if (ours(key) && key !== AT_START) delete holders[key];

  proto.emit = atStart.serverEmit;
  for (const marker of Object.getOwnPropertySymbols(proto)) if (ours(marker)) delete proto[marker];
}

startAsIfOwnProcess();
