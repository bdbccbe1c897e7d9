import { Hono } from "hono";
import { authenticate, rateLimit } from "./auth";
import type { ContrarianConfig } from "./config";
import { sha256 } from "./ids";
import { Lifecycle } from "./lifecycle";
import { Problem, TextProblem } from "./problems";
import { apiKeys } from "./routes/api-keys";
import { contacts } from "./routes/contacts";
import { addDomain, domains } from "./routes/domains";
import { emails } from "./routes/emails";
import { inbound } from "./routes/inbound";
import { suppressions } from "./routes/suppressions";
import { templates } from "./routes/templates";
import { testAids } from "./routes/test-aids";
import { webhooks } from "./routes/webhooks";
import type { Env, Runtime } from "./runtime";
import { Store } from "./store";
import { seedTemplates } from "./templates";
import { Timers } from "./timers";
import { Dispatcher } from "./webhooks";

/** The account: its key, its projects, and in each a verified domain, the templates and two suppressions. */
function seed(rt: Runtime): void {
  const { store, config } = rt;
  store.projects = [...config.projects];
  store.keys.push({ id: "ak.ACCOUNT", name: "Account key", hash: sha256(config.accountKey), projectId: null, scopes: [], createdAt: new Date() });
  config.projects.forEach((projectId, i) => {
    const slug = projectId.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    addDomain(rt, projectId, `mail.${slug}.example`, 0);
    seedTemplates(store, projectId, i);
    store.addSuppression(projectId, `old-bounce@${slug}.example`, "legacy_import", "seed");
    store.addSuppression(projectId, `do-not-mail@${slug}.example`, "added_by_api", "seed");
  });
}

export interface Contrarian {
  app: Hono<Env>;
  rt: Runtime;
  stop(): void;
}

export function createContrarian(config: ContrarianConfig, publicUrl: () => string = () => config.publicUrl ?? `http://${config.host}:${config.port}`): Contrarian {
  const store = new Store();
  const timers = new Timers();
  const dispatcher = new Dispatcher(config, store, timers);
  const rt: Runtime = { config, store, timers, dispatcher, lifecycle: new Lifecycle(config, store, timers, dispatcher), publicUrl };
  seed(rt);

  const app = new Hono<Env>();
  app.use("*", async (c, next) => {
    c.set("rt", rt);
    c.header("X-Contrarian-Request", Math.random().toString(36).slice(2, 10));
    await next();
    if (config.logRequests) console.log(`${c.req.method} ${new URL(c.req.url).pathname}${new URL(c.req.url).search} → ${c.res.status}`);
  });
  app.use("/v1/*", rateLimit(), authenticate());
  app.use("/blobs/*", rateLimit(), authenticate());
  app.use("/__contrarian/*", authenticate());
  for (const routes of [emails, domains, contacts, templates, suppressions, inbound, webhooks, apiKeys, testAids]) app.route("/", routes);
  app.notFound((c) => c.text(`No route for ${c.req.method} ${new URL(c.req.url).pathname}`, 404));
  app.onError((error, c) => {
    if (error instanceof Problem || error instanceof TextProblem) {
      const response = error.toResponse();
      response.headers.set("X-Contrarian-Request", c.res.headers.get("X-Contrarian-Request") ?? "");
      return response;
    }
    console.error(`contrarian: ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return c.text("Internal error in the contrarian service.", 500);
  });
  return { app, rt, stop: () => timers.stop() };
}
