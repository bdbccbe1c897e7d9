import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { loadConfig } from "./config";
import type { Deps } from "./context";
import { openDatabase } from "./db/client";
import { seedIfNew } from "./seed";
import { jobHandlers } from "./worker/handlers";
import { startWorker, type Worker } from "./worker/queue";

/** Entry point of `npm run service`: database, seed, HTTP server, background work. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.SERVICE_DATABASE_URL, dataDir: config.SERVICE_DATA_DIR });
  let worker: Worker | null = null;
  const deps: Deps = { db: database.db, config, kick: () => worker?.kick() };
  const app = createApp(deps);

  const server = serve({ fetch: app.fetch, port: config.SERVICE_PORT, hostname: config.SERVICE_HOST }, async (info) => {
    const url = config.SERVICE_PUBLIC_URL ?? `http://${config.SERVICE_HOST}:${info.port}`;
    await seedIfNew(deps, url);
    worker = startWorker(deps, jobHandlers);
    console.log(`[service] listening on ${url} (${database.kind === "pglite" ? `PGlite in ${config.SERVICE_DATA_DIR}` : "Postgres"})`);
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
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
