import type { ContrarianConfig } from "./config";
import type { Lifecycle } from "./lifecycle";
import type { ApiKeyRecord, Store } from "./store";
import type { Timers } from "./timers";
import type { Dispatcher } from "./webhooks";

/** What every route needs: configuration, state and the moving parts. */
export interface Runtime {
  config: ContrarianConfig;
  store: Store;
  timers: Timers;
  dispatcher: Dispatcher;
  lifecycle: Lifecycle;
  /** Where clients reach the contrarian (attachment urls). */
  publicUrl(): string;
}

/** Hono context variables set by the auth middleware. */
export type Env = { Variables: { rt: Runtime; key: ApiKeyRecord } };
