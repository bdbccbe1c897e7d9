/**
 * The contrarian email service: a second implementation of ../../../shared/service-interface.md
 * for tests only (see README.md). `npx tsx e2e/contrarian-service/server.ts`
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createContrarian } from "./src/app";
import { readConfig } from "./src/config";

const config = readConfig();
let origin = "";
const contrarian = createContrarian(config, () => config.publicUrl ?? origin);
const server = serve({ fetch: contrarian.app.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => {
  origin = `http://${config.host}:${info.port}`;
  console.log(`contrarian service: projects ${config.projects.join(", ")}; account key ${process.env.CONTRARIAN_ACCOUNT_KEY ? "from CONTRARIAN_ACCOUNT_KEY" : config.accountKey}`);
  console.log(`listening on ${origin}`);
});

function stop() {
  contrarian.stop();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
