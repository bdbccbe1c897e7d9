/**
 * Start-up of the dashboard server (Node runtime only): environment check, migrations,
 * first admin, demo projects. NEXT_RUNTIME and NEXT_PHASE are set by Next itself, not by
 * the operator, so reading them here does not bypass lib/server/env.ts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Before anything can fail: errors Next or a library print go through the safe summary (no SQL parameters).
  const { guardConsoleErrors } = await import("./contract/log/console-guard");
  guardConsoleErrors();
  // LOG_FORMAT=json: every line as one JSON object, under the same scrub (lib/server/log/json-log.ts).
  const { installLogFormat } = await import("./lib/server/log/json-log");
  installLogFormat();
  // First, so every request carries its TCP peer for sign-in throttling (lib/server/http/client-address.ts).
  const { installPeerAddressHeader } = await import("./lib/server/http/client-address");
  installPeerAddressHeader();
  // Every request body bounded before Next reads it (lib/server/http/request-body-limits.ts). Installed
  // before the ingest's fast path, so deliveries are taken by that first, under their own limits.
  const { installRequestBodyLimits } = await import("./lib/server/http/request-body-limits");
  installRequestBodyLimits();
  // The event stream's deliveries answered before Next routes them (lib/server/event-stream/fast-path.ts).
  const { installIngestFastPath } = await import("./lib/server/event-stream/fast-path");
  installIngestFastPath();
  // One message's read answered before Next routes it, through the same route() guard (lib/server/messages/read-fast-path.ts).
  const { installMessageReadFastPath } = await import("./lib/server/messages/read-fast-path");
  installMessageReadFastPath();
  // After the hooks that answer requests themselves: once told to stop, every answer closes its
  // connection, so a steady stream of deliveries cannot hold the server's close (lib/server/http/close-on-stop.ts).
  const { installCloseOnStop } = await import("./lib/server/http/close-on-stop");
  installCloseOnStop();
  // Last, so it runs around every hook above: each answer counted by route pattern (GET /api/metrics)
  // and, with LOG_FORMAT=json, logged (lib/server/metrics/http-requests.ts).
  const { installRequestMetrics } = await import("./lib/server/metrics/http-requests");
  installRequestMetrics();
  const { startOrExit } = await import("./lib/server/startup");
  await startOrExit();
}
