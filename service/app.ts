import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { safeErrorSummary } from "../contract/log/safe-error";
import { MAX_REQUEST_BYTES } from "../contract/wire/limits";
import type { AppEnv, Deps } from "./context";
import { authenticate } from "./lib/auth";
import { ServiceError, fromZodError } from "./lib/errors";
import { bodyGuard, urlGuard } from "./lib/input-guard";
import { newId } from "./lib/ids";
import { createRateLimiter } from "./lib/rate-limit";
import * as apiKeys from "./routes/api-keys";
import * as contacts from "./routes/contacts";
import * as domains from "./routes/domains";
import * as emails from "./routes/emails";
import * as inbound from "./routes/inbound";
import * as suppressions from "./routes/suppressions";
import * as templates from "./routes/templates";
import * as webhooks from "./routes/webhooks";

/**
 * The service as a Hono app, without a socket: the server binds it, tests call
 * `app.request()` on it directly.
 */
export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({
    // Validation failures of any route become our one error shape, naming the field.
    defaultHook: (result) => {
      if (!result.success) throw fromZodError(result.error, result.target === "header" ? [] : []);
    },
  });
  const rateLimit = createRateLimiter(deps.config.SERVICE_RATE_LIMIT, deps.config.SERVICE_RATE_BURST);

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("requestId", newId("req"));
    await next();
    c.header("X-Request-Id", c.get("requestId"));
  });

  // Before authentication: a path that does not decode is refused the same signed in or not.
  app.use("/v1/*", urlGuard(() => app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route.path] : []))));

  app.use("/v1/*", async (c, next) => {
    if (c.req.path === "/v1/openapi.json") return next();
    const auth = await authenticate(c);
    rateLimit(auth.keyId);
    c.set("auth", auth);
    await next();
  });

  // After authentication, so an unauthenticated caller never gets a body read at all.
  app.use("/v1/*", bodyGuard(MAX_REQUEST_BYTES));

  for (const routes of [apiKeys, emails, domains, contacts, templates, suppressions, inbound, webhooks]) {
    routes.register(app);
  }

  app.doc31("/v1/openapi.json", {
    openapi: "3.1.0",
    info: { title: "Email service (local implementation)", version: "1.0.0" },
    security: [{ bearerAuth: [] }],
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });

  app.notFound((c) => c.json(new ServiceError(404, "not_found", `No route for ${c.req.method} ${c.req.path}`).toBody(), 404));

  app.onError((err, c) => {
    if (err instanceof ServiceError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(err.toBody(), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 415 ? "unsupported_media_type" : status === 400 ? "invalid_json" : "http_error";
      const message = status === 415 ? "Content-Type: send JSON with 'Content-Type: application/json'" : `body: ${err.message || "Malformed request"}`;
      return c.json(new ServiceError(status as 400, code, message, status === 415 ? "Content-Type" : "body").toBody(), status);
    }
    if (err instanceof SyntaxError) {
      return c.json(new ServiceError(400, "invalid_json", "body: the request body is not valid JSON", "body").toBody(), 400);
    }
    // What failed and where, never the values: a failed query's parameters hold secrets.
    console.error(`[service] ${c.get("requestId")} ${c.req.method} ${c.req.path} failed: ${safeErrorSummary(err)}`);
    return c.json(new ServiceError(500, "internal_error", `Internal error (request ${c.get("requestId")})`).toBody(), 500);
  });

  return app;
}
