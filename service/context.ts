import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Resolver } from "../contract/net/destination";
import type { ServiceConfig } from "./config";
import type { Db } from "./db/client";

/** What every route and worker needs; built once by the server (or a test). */
export type Deps = {
  db: Db;
  config: ServiceConfig;
  /** Wakes the workers when new work is queued, so tests and demos need not wait a poll. */
  kick: () => void;
  /** How webhook hosts are resolved; the system's when absent (tests make names point anywhere). */
  resolve?: Resolver;
};

export type AuthInfo = {
  keyId: string;
  accountId: string;
  /** Set for project-scoped keys. */
  keyProjectId: string | null;
  scopes: string[];
};

export type AppEnv = { Variables: { deps: Deps; auth: AuthInfo; requestId: string } };
export type App = OpenAPIHono<AppEnv>;
