import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Resolver } from "../../contract/net/destination";
import { createApp } from "../app";
import { testConfig, type ServiceConfig } from "../config";
import type { Deps } from "../context";
import { openTestDatabase } from "../db/test-db";
import { createAccount, createApiKey, createProject } from "../lib/accounts";
import { forgetCachedKeys } from "../lib/auth";
import { startWorker, type Worker } from "../worker/queue";
import { jobHandlers } from "../worker/handlers";

export type TestService = Awaited<ReturnType<typeof createTestService>>;

/**
 * A service on a fresh database with one account, two projects (`alpha`, `beta`),
 * an account-wide key and a key scoped to `alpha`. `worker: true` runs the job queue.
 */
export async function createTestService(opts: { config?: Partial<ServiceConfig>; worker?: boolean; dataDir?: string; resolve?: Resolver } = {}) {
  forgetCachedKeys();
  const database = await openTestDatabase({ dataDir: opts.dataDir });
  const config = testConfig(opts.config);
  let worker: Worker | null = null;
  const deps: Deps = { db: database.db, config, kick: () => worker?.kick(), ...(opts.resolve ? { resolve: opts.resolve } : {}) };
  const app = createApp(deps);
  const account = await createAccount(database.db, "Test account");
  const alpha = await createProject(database.db, account.id, "alpha", "Alpha");
  const beta = await createProject(database.db, account.id, "beta", "Beta");
  const accountKey = (await createApiKey(database.db, { accountId: account.id, projectId: null, name: "account" })).secret;
  const alphaKey = (await createApiKey(database.db, { accountId: account.id, projectId: alpha.id, name: "alpha" })).secret;
  if (opts.worker) worker = startWorker(deps, jobHandlers, { watched: database.kind === "pglite" });

  /** A request with the account-wide key naming `project` (default alpha). */
  function call(method: string, path: string, init: { body?: unknown; project?: string | null; key?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { Authorization: `Bearer ${init.key ?? accountKey}`, ...init.headers };
    const project = init.project === undefined ? "alpha" : init.project;
    if (project) headers["X-Service-Product"] = project;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    return app.request(path, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  }

  /** POST /v1/emails with `body`, as `call` makes it. */
  const sendEmail = (body: unknown, init: Parameters<typeof call>[2] = {}) => call("POST", "/v1/emails", { body, ...init });

  return {
    app, deps, db: database.db, account, alpha, beta, accountKey, alphaKey, call, sendEmail,
    get worker() { return worker; },
    async close() {
      await worker?.stop();
      await database.close();
    },
  };
}

export function tempDir(prefix = "svc-test-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
