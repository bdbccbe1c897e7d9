import "server-only";
import http from "node:http";

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Runs `hook` on every request Node's HTTP server receives, before Next sees it — the one
 * place the dashboard reaches under Next (`next start` runs one server in this process). The
 * hook returns true when it answered the request itself, and Next is then not called.
 * Installed once per `key` (at start, from instrumentation.ts); hooks chain in the order
 * installed, the last one first.
 */
export function hookServerRequests(key: symbol, hook: (req: http.IncomingMessage, res: http.ServerResponse) => boolean): void {
  wrapServerRequests(key, (req, res, next) => hook(req, res) || next());
}

/**
 * The same, for a hook that must run around the rest (the request's metrics and log line,
 * lib/server/metrics/http-requests.ts): `next` hands the request on — to the hooks installed
 * before this one, then to Next — and returns what they did.
 */
export function wrapServerRequests(key: symbol, wrap: (req: http.IncomingMessage, res: http.ServerResponse, next: () => boolean) => boolean): void {
  const proto = http.Server.prototype as unknown as { emit: Emit } & Record<symbol, boolean | undefined>;
  if (proto[key]) return;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event, ...args) {
    if (event !== "request") return emit.call(this, event, ...args);
    return wrap(args[0] as http.IncomingMessage, args[1] as http.ServerResponse, () => emit.call(this, event, ...args));
  };
  proto[key] = true;
}
