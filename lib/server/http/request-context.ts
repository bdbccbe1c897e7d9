import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What is known of the request being answered, for its log line and its metrics: entered on
 * Node's server before Next sees the request (lib/server/metrics/http-requests.ts), filled in
 * by the guard (route(): the user, the project) and read when the answer ends. Outside a
 * request (a background pass, a test calling a handler directly) there is none.
 *
 * On globalThis: Next bundles instrumentation.ts and the route handlers separately in one
 * process, and both must reach the same storage.
 */
export type RequestContext = {
  /** Also route()'s correlation id, so the log line and the X-Correlation-Id header agree. */
  requestId: string;
  userId: string | null;
  /** The project's external id, once the guard has resolved it. */
  project: string | null;
};

const KEY = Symbol.for("mail-dashboard.request-context");

function storage(): AsyncLocalStorage<RequestContext> {
  const holder = globalThis as { [KEY]?: AsyncLocalStorage<RequestContext> };
  return (holder[KEY] ??= new AsyncLocalStorage());
}

export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage().run(context, fn);
}

export function requestContext(): RequestContext | undefined {
  return storage().getStore();
}
