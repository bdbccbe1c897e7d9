import "server-only";
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { wrapServerRequests } from "@/lib/server/http/http-request-hook";
import { runInRequestContext, type RequestContext } from "@/lib/server/http/request-context";
import { installedJsonLogger } from "@/lib/server/log/json-log";
import { writeRequestLine } from "@/lib/server/log/request-line";
import { routePatternOf } from "./route-pattern";
import { series } from "./registry";

/** Methods as labels: the standard ones, anything else one value. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodLabel = (m: string | undefined) => (m && METHODS.has(m) ? m : "other");

/**
 * Observes one request: its context entered for everything that answers it (the body limits,
 * the ingest's fast path, Next and route()), and when its answer ends or the client goes away,
 * the request counted by route pattern, method and status, its duration observed, and, with
 * LOG_FORMAT=json, its log line written. Exported for tests, which drive a plain Node server.
 */
export function observeRequest(req: http.IncomingMessage, res: http.ServerResponse, next: () => boolean): boolean {
  const started = performance.now();
  const context: RequestContext = { requestId: randomUUID(), userId: null, project: null };
  res.once("close", () => {
    const seconds = (performance.now() - started) / 1000;
    const route = routePatternOf(req.url);
    const method = methodLabel(req.method);
    // A client gone before any answer was written saw no status: "aborted", not Node's default 200.
    const answered = res.headersSent;
    const labels = { route, method, status: answered ? String(res.statusCode) : "aborted" };
    const s = series();
    s.httpRequests.inc(labels);
    s.httpDuration.observe(labels, seconds);
    const logger = installedJsonLogger();
    if (logger) writeRequestLine(logger, { requestId: context.requestId, method, route, status: answered ? res.statusCode : null, durationMs: seconds * 1000, userId: context.userId, project: context.project });
  });
  return runInRequestContext(context, next);
}

/** Installed last (instrumentation.ts), so it runs around every other hook and sees every answer. */
export function installRequestMetrics(): void {
  wrapServerRequests(Symbol.for("mail-dashboard.request-metrics"), observeRequest);
}
