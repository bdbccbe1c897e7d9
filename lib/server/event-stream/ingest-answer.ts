import "server-only";
import { AppError, isAppError } from "@/lib/errors";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { BUSY_RETRY_AFTER_S } from "./ingest-limits";

/**
 * The ingest's error answer, in the dashboard's one error shape (`AppError.toBody()`, as every
 * route answers: `Cache-Control: no-store`, `X-Correlation-Id`), without the route wrapper the
 * ingest does not go through (the signature is its authentication, lib/server/route.ts is for
 * signed-in browsers). A 429 of the ingest's own limits says when to come back
 * (BUSY_RETRY_AFTER_S). An unexpected failure is logged under the correlation id by what failed
 * and where, never the values it was working on, and answered as a 500 that names only the id.
 * `path` is the request's path, for the log.
 */
export function ingestErrorAnswer(e: unknown, path: string): Response {
  const correlationId = crypto.randomUUID();
  let err: AppError;
  if (isAppError(e)) {
    err = e;
    if (err.status >= 500) console.error(`[${correlationId}] POST ${path} → ${err.status} ${err.code}: ${err.message}`);
  } else {
    console.error(`[${correlationId}] POST ${path} failed: ${safeErrorSummary(e)}`);
    err = new AppError(500, "internal_error", `Something went wrong on our side. Reference: ${correlationId}.`);
  }
  const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Correlation-Id": correlationId };
  if (err.status === 429) headers["Retry-After"] = String(BUSY_RETRY_AFTER_S);
  else if (err.status === 503 && err.retryAfterMs !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(err.retryAfterMs / 1000)));
  return new Response(JSON.stringify(new AppError(err.status, err.code, err.message, err.param, correlationId).toBody()), { status: err.status, headers });
}
