import { serve } from "@hono/node-server";
import { guardConsoleErrors } from "../contract/log/console-guard";
import { safeErrorSummary } from "../contract/log/safe-error";
import { createApp } from "./app";
import { loadConfig } from "./config";
import type { Deps } from "./context";
import { openDatabase } from "./db/client";
import { syncTemplates } from "./lib/template-files";
import { seedIfNew } from "./seed";
import { startInboundSmtp } from "./smtp/inbound";
import { jobHandlers } from "./worker/handlers";
import { startWorker, type Worker } from "./worker/queue";

/** Entry point of `npm run service`: database, templates, seed, HTTP server, background work. */
async function main() {
  // Like the dashboard's: a raw error or an error's message written to the log keeps its code, not its values.
  guardConsoleErrors();
  const config = loadConfig();
  const database = await openDatabase({ url: config.SERVICE_DATABASE_URL, dataDir: config.SERVICE_DATA_DIR });
  let worker: Worker | null = null;
  const deps: Deps = { db: database.db, config, kick: () => worker?.kick() };
  // Templates come from service/templates/ (the interface has no create operation): refresh them in every project.
  await syncTemplates(database.db);
  const app = createApp(deps);
  const closers: (() => Promise<void> | void)[] = [];

  // ── Inbound SMTP listener (SERVICE_SMTP_INBOUND_PORT) ─────────────────────────────
  // Started here, once the database is open; push its close function onto `closers`.
  if (config.SERVICE_SMTP_INBOUND_PORT !== undefined) {
    const inbound = await startInboundSmtp(deps, config.SERVICE_SMTP_INBOUND_PORT);
    closers.push(inbound.close);
    console.log(`[service] receiving mail by SMTP on ${config.SERVICE_HOST}:${inbound.port}`);
  }
  // ──────────────────────────────────────────────────────────────────────────────────

  const server = serve({ fetch: app.fetch, port: config.SERVICE_PORT, hostname: config.SERVICE_HOST }, async (info) => {
    const url = config.SERVICE_PUBLIC_URL ?? `http://${config.SERVICE_HOST}:${info.port}`;
    try {
      await seedIfNew(deps, url);
    } catch (error) {
      console.error(`[service] seeding failed; the service runs without the demo data: ${safeErrorSummary(error)}`);
    }
    worker = startWorker(deps, jobHandlers, { watched: database.kind === "pglite" });
    console.log(`[service] listening on ${url} (${database.kind === "pglite" ? `PGlite in ${config.SERVICE_DATA_DIR}` : "Postgres"})`);
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    for (const close of closers) await close();
    await worker?.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`[service] failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
