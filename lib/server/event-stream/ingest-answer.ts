import "server-only";
import { AppError, isAppError } from "@/lib/errors";
import { errorResponse } from "@/lib/server/http/error-answer";
import { BUSY_RETRY_AFTER_S } from "./ingest-limits";

/**
 * The ingest's error answer: the dashboard's one error answer (lib/server/http/error-answer.ts:
 * the one error shape, `no-store`, `X-Correlation-Id`, an unexpected failure logged by what
 * failed and where, never the values), without the route wrapper the ingest does not go through
 * (the signature is its authentication, lib/server/gate/route.ts is for signed-in browsers). A 429
 * of the ingest's own limits says when to come back (BUSY_RETRY_AFTER_S). `path` is the
 * request's path, for the log.
 */
export function ingestErrorAnswer(e: unknown, path: string): Response {
  return errorResponse(isAppError(e) && e.status === 429 ? comeBackIn(e, BUSY_RETRY_AFTER_S) : e, crypto.randomUUID(), `POST ${path}`);
}

/** A copy of `e` that says when to come back (the thrown error is left as it is). */
function comeBackIn(e: AppError, seconds: number): AppError {
  const copy = new AppError(e.status, e.code, e.message, e.param);
  copy.retryAfterMs = seconds * 1000;
  return copy;
}
